import { defineCommand } from '../../cli/defineCommand.js';
import type { Style } from '../../cli/terminal.js';
import { CLI_VERSION } from '../../version.js';
import { noPositionals } from '../_arguments.js';
import type { UpgradeOptions, UpgradeReport } from './upgradeProject.js';

/** `platform upgrade [--check]`. */
export const upgradeCommand = defineCommand<UpgradeOptions, UpgradeReport>({
  name: 'upgrade',
  summary: "Move the pinned @platform/* packages to this CLI's train; --check only checks",
  description: [
    'Rewrites package.json so that @platform/sdk, ui, integration-schema and harness are on the train',
    `of the schema this CLI bundles, and @platform/cli is at least ${CLI_VERSION}; adds next-intl when`,
    'moving to 0.4. Never moves a package down. Install afterwards with your package manager.',
    "--check reports the same plan and whether the project's installed integration-schema is newer",
    "than this CLI's (schema skew). Both read the versions the project's @platform registry serves",
    "(.npmrc's @platform:registry, the Platform host's /registry/): targets it does not serve and",
    'packages past this train are reported.',
  ],
  options: {
    check: { type: 'boolean', description: 'Only report what would change and whether the schema is skewed' },
  },
  examples: ['platform upgrade --check', 'platform upgrade && npm install'],
  exitCodes: [
    '1 there is no package.json in the project directory',
    '9 the project is past this CLI (schema skew or newer pins)',
  ],
  parse(commandLine, context) {
    noPositionals('upgrade', commandLine);
    return { cwd: context.cwd, env: context.env, check: commandLine.values.check === true };
  },
  async run(options) {
    const { upgradeProject } = await import('./upgradeProject.js');
    return { ok: true, data: await upgradeProject(options) };
  },
  render: renderUpgrade,
});

function renderUpgrade(report: UpgradeReport, style: Style): string {
  const lines: string[] = [];
  const schema =
    report.schema.project === null
      ? `integration-schema: not installed (this CLI bundles ${report.schema.bundled})`
      : report.schema.skewed
        ? style.red(
            `integration-schema: the project's ${report.schema.project} is newer than the bundled ${report.schema.bundled} (skewed)`,
          )
        : `integration-schema: ${report.schema.project} (bundled ${report.schema.bundled}, not skewed)`;
  lines.push(
    `${style.bold('platform upgrade')} ${style.dim(`to train ${report.train} (cli ${report.cli})`)}`,
    schema,
  );
  if (report.changes.length === 0) {
    lines.push(style.green(`Already on the ${report.train} train; nothing to change.`));
  } else {
    lines.push(report.applied ? 'Changed in package.json:' : 'Would change in package.json:');
    for (const change of report.changes) {
      lines.push(
        `  ${change.name.padEnd(30)} ${(change.from ?? '(added)').padEnd(10)} -> ${style.green(change.to)}  ${style.dim(change.section)}`,
      );
    }
    if (report.applied) lines.push(`Run \`${report.installCommand}\` to install them.`);
  }
  lines.push(...renderRegistry(report, style));
  for (const item of report.ahead) {
    lines.push(
      style.yellow(
        `  ${item.name} ${item.range} is past train ${report.train}; a newer CLI is needed to upgrade it.`,
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

function renderRegistry(report: UpgradeReport, style: Style): string[] {
  const { registry } = report;
  if (registry.url === null) {
    return [
      style.yellow(
        "No @platform:registry in .npmrc: npm would look for @platform/* on the public registry, whose @platform scope is someone else's. Add `@platform:registry=<host>/registry/` (platform init --host writes it).",
      ),
    ];
  }
  if (!registry.reachable) {
    return [
      style.yellow(
        `registry: ${registry.url} did not answer (${registry.error ?? 'unknown error'}); versions not checked.`,
      ),
    ];
  }
  const latest = Object.entries(registry.latest).map(
    ([name, version]) => `${name.slice('@platform/'.length)} ${version}`,
  );
  return [
    style.dim(`registry: ${registry.url} (latest: ${latest.length === 0 ? 'none' : latest.join(', ')})`),
    ...registry.unserved.map((item) =>
      style.yellow(
        `  ${item.name} ${item.range}: the registry serves no matching version; installing would fail.`,
      ),
    ),
    ...registry.newer.map((item) =>
      style.yellow(
        `  ${item.name} ${item.latest} is on the registry, past ${item.name === '@platform/cli' ? `this CLI (${report.cli})` : `train ${report.train}`}: run \`npx @platform/cli@latest upgrade\` in the project to move to it.`,
      ),
    ),
  ];
}
