import { SCHEMA_VERSION } from '@platform/integration-schema';
import { CliError } from '../cli/CliError.js';
import { CLI_VERSION } from '../version.js';
import { detectPackageManager, findInstalledPackage, oneOffCommand } from './packageJson.js';
import { compareVersions, parseVersion } from './semver.js';

/** The schema this CLI bundles against the one a project has installed. */
export interface SchemaSkew {
  readonly bundled: string;
  /** The project's installed `@platform/integration-schema`, or `null` when none is installed. */
  readonly project: string | null;
  /** True when the project's schema is newer than the bundled one: findings would be unreliable. */
  readonly skewed: boolean;
}

/**
 * Compares the project's installed `@platform/integration-schema` (the copy its `@platform/sdk`
 * uses, else the one the project resolves) with the schema this CLI bundles.
 */
export function checkSchemaSkew(projectDir: string): SchemaSkew {
  const sdk = findInstalledPackage(projectDir, '@platform/sdk');
  const installed =
    (sdk === undefined ? undefined : findInstalledPackage(sdk.dir, '@platform/integration-schema')) ??
    findInstalledPackage(projectDir, '@platform/integration-schema');
  if (installed === undefined || parseVersion(installed.version) === undefined) {
    return { bundled: SCHEMA_VERSION, project: null, skewed: false };
  }
  return {
    bundled: SCHEMA_VERSION,
    project: installed.version,
    skewed: compareVersions(installed.version, SCHEMA_VERSION) > 0,
  };
}

/** The `precondition_failed` error for a skewed project: nothing was loaded, and how to fix it. */
export function schemaSkewError(
  skew: SchemaSkew,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>>,
): CliError {
  const manager = detectPackageManager(projectDir, env);
  return new CliError(
    'precondition_failed',
    `This project's @platform/integration-schema is ${skew.project}, newer than the ${skew.bundled} bundled with @platform/cli ${CLI_VERSION}; findings would be unreliable, so no definition was loaded.`,
    {
      hint: `Run \`${oneOffCommand(manager)} @platform/cli@latest upgrade\` to move the project's @platform/cli to a release that bundles integration-schema ${skew.project} or newer, then \`${manager} install\`.`,
    },
  );
}
