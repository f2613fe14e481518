import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../../cli/CliError.js';
import { defineCommand } from '../../cli/defineCommand.js';
import type { Style } from '../../cli/terminal.js';
import { detectPackageManager, oneOffCommand, readPackageJson } from '../../project/packageJson.js';
import { CLI_TRAIN } from '../../project/pins.js';
import { checkSchemaSkew, type SchemaSkew, schemaSkewError } from '../../project/schemaSkew.js';
import { CLI_VERSION } from '../../version.js';
import { noPositionals } from '../_arguments.js';
import { type AheadPackage, type PackageChange, planUpgrade } from './planUpgrade.js';

export { type AheadPackage, type PackageChange, planUpgrade, type UpgradePlan } from './planUpgrade.js';

/** What `upgrade` needs. */
export interface UpgradeOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Report only; change nothing. */
  readonly check: boolean;
}

/** What `platform upgrade` reports (`data` of its JSON envelope). */
export interface UpgradeReport {
  readonly project: string;
  readonly cli: string;
  /** This CLI's release train (`0.4`). */
  readonly train: string;
  readonly schema: SchemaSkew;
  readonly changes: readonly PackageChange[];
  readonly ahead: readonly AheadPackage[];
  /** True when package.json was rewritten (never with `--check`). */
  readonly applied: boolean;
  /** What to run after the change to install it (`npm install`). */
  readonly installCommand: string;
}

/**
 * Moves the project's pinned `@platform/*` packages onto this CLI's train (and adds next-intl
 * when moving to 0.4), or with `check` only reports that and the schema skew. Refuses, changing
 * nothing, when the project is already past this CLI.
 */
export async function upgradeProject(options: UpgradeOptions): Promise<UpgradeReport> {
  const packageJson = readPackageJson(options.cwd);
  if (packageJson === undefined) {
    throw new CliError('project_not_found', `No readable package.json in ${options.cwd}.`, {
      hint: 'Run the command in the project folder, or pass --cwd <dir>.',
    });
  }
  const manager = detectPackageManager(options.cwd, options.env);
  const schema = checkSchemaSkew(options.cwd);
  const plan = planUpgrade(packageJson, manager);
  const report: UpgradeReport = {
    project: options.cwd,
    cli: CLI_VERSION,
    train: CLI_TRAIN,
    schema,
    changes: plan.changes,
    ahead: plan.ahead,
    applied: false,
    installCommand: `${manager} install`,
  };
  if (options.check) return report;
  if (schema.skewed) throw schemaSkewError(schema, options.cwd, options.env);
  if (plan.ahead.length > 0) {
    const list = plan.ahead.map((item) => `${item.name} ${item.range}`).join(', ');
    throw new CliError(
      'precondition_failed',
      `The project is past this CLI's train (${CLI_TRAIN}): ${list}. @platform/cli ${CLI_VERSION} does not move packages down.`,
      {
        hint: `Run \`${oneOffCommand(manager)} @platform/cli@latest upgrade\` to upgrade with the newest CLI instead.`,
      },
    );
  }
  if (plan.changes.length === 0) return report;
  const path = join(options.cwd, 'package.json');
  const indent = /^[ \t]+(?=")/m.exec(readFileSync(path, 'utf8'))?.[0] ?? '  ';
  writeFileSync(path, `${JSON.stringify(plan.upgraded, null, indent)}\n`);
  return { ...report, applied: true };
}

/** `platform upgrade [--check]`. */
export const upgradeCommand = defineCommand<UpgradeOptions, UpgradeReport>({
  name: 'upgrade',
  summary: "Move the pinned @platform/* packages to this CLI's train; --check only checks",
  description: [
    `Rewrites package.json so that @platform/sdk, ui, integration-schema and harness are on the ${CLI_TRAIN}`,
    `train and @platform/cli is at least ${CLI_VERSION}; adds next-intl when moving to 0.4. Never moves a`,
    'package down. Install afterwards with your package manager. --check reports the same plan and',
    "whether the project's installed integration-schema is newer than this CLI's (schema skew).",
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
  for (const item of report.ahead) {
    lines.push(
      style.yellow(
        `  ${item.name} ${item.range} is past train ${report.train}; a newer CLI is needed to upgrade it.`,
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}
