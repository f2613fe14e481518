import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../../cli/CliError.js';
import {
  detectPackageManager,
  oneOffCommand,
  type PackageJson,
  readPackageJson,
} from '../../project/packageJson.js';
import { CLI_TRAIN, PLATFORM_PINS } from '../../project/pins.js';
import { type RegistryVersions, readRegistryVersions, servesRange } from '../../project/registry.js';
import { checkSchemaSkew, type SchemaSkew, schemaSkewError } from '../../project/schemaSkew.js';
import { compareVersions, parseVersion, trainOf } from '../../project/semver.js';
import { CLI_VERSION } from '../../version.js';
import { type AheadPackage, type PackageChange, planUpgrade } from './planUpgrade.js';

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
  /** This CLI's release train, its bundled schema's `major.minor` (`0.5`). */
  readonly train: string;
  readonly schema: SchemaSkew;
  readonly changes: readonly PackageChange[];
  readonly ahead: readonly AheadPackage[];
  /** True when package.json was rewritten (never with `--check`). */
  readonly applied: boolean;
  /** What to run after the change to install it (`npm install`). */
  readonly installCommand: string;
  /**
   * What the project's `@platform` registry (its `.npmrc`, the Platform host's `/registry/`) serves:
   * the newest version of each package, the target ranges it serves no version of (`unserved`:
   * an install would fail), and packages whose newest version is past this CLI's train (`newer`:
   * a newer CLI upgrades to them; for `@platform/cli` itself, past this CLI's own `major.minor`).
   */
  readonly registry: RegistryVersions & {
    readonly unserved: readonly { readonly name: string; readonly range: string }[];
    readonly newer: readonly { readonly name: string; readonly latest: string }[];
  };
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
  // What refuses an upgrade needs no network: said before the registry is asked.
  if (!options.check) {
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
  }
  const registry = await readRegistryVersions(options.cwd, Object.keys(PLATFORM_PINS));
  const report: UpgradeReport = {
    project: options.cwd,
    cli: CLI_VERSION,
    train: CLI_TRAIN,
    schema,
    changes: plan.changes,
    ahead: plan.ahead,
    applied: false,
    installCommand: `${manager} install`,
    registry: { ...registry, ...checkAgainstRegistry(plan.upgraded, registry) },
  };
  if (options.check) return report;
  if (plan.changes.length === 0) return report;
  const path = join(options.cwd, 'package.json');
  const indent = /^[ \t]+(?=")/m.exec(readFileSync(path, 'utf8'))?.[0] ?? '  ';
  writeFileSync(path, `${JSON.stringify(plan.upgraded, null, indent)}\n`);
  return { ...report, applied: true };
}

// The upgraded @platform/* ranges the registry serves nothing for, and what it serves past the train.
function checkAgainstRegistry(
  upgraded: PackageJson,
  registry: RegistryVersions,
): Pick<UpgradeReport['registry'], 'unserved' | 'newer'> {
  if (!registry.reachable) return { unserved: [], newer: [] };
  const unserved: { name: string; range: string }[] = [];
  for (const section of ['dependencies', 'devDependencies'] as const) {
    for (const [name, range] of Object.entries(upgraded[section] ?? {})) {
      if (PLATFORM_PINS[name] === undefined) continue;
      if (!servesRange(registry.versions[name] ?? [], range)) unserved.push({ name, range });
    }
  }
  // The CLI versions apart from the train (CLI 0.4 bundles schema 0.5): its own train is the mark.
  const cliTrain = trainOf(parseVersion(CLI_VERSION)!);
  const newer = Object.entries(registry.latest)
    .filter(([name, latest]) => {
      const version = parseVersion(latest);
      const train = name === '@platform/cli' ? cliTrain : CLI_TRAIN;
      return version !== undefined && compareVersions(`${trainOf(version)}.0`, `${train}.0`) > 0;
    })
    .map(([name, latest]) => ({ name, latest }));
  return { unserved, newer };
}
