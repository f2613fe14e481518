import { CliError } from '../../cli/CliError.js';
import {
  detectPackageManager,
  findInstalledPackage,
  oneOffCommand,
  type PackageManager,
  readPackageJson,
} from '../../project/packageJson.js';
import { PLATFORM_PINS } from '../../project/pins.js';
import { CLI_VERSION } from '../../version.js';

/**
 * The shell contract this CLI generates (spec, Versioning 3): the harness package says which one
 * it speaks in `platform.shellContract`, and `platform dev` refuses to generate on a mismatch.
 */
export const SHELL_CONTRACT = 2;

/** The project's installed `@platform/harness`, as `platform dev` reads it. */
export interface HarnessPackage {
  /** The package's directory (real path). */
  readonly dir: string;
  readonly version: string;
  /** `platform.shellContract` of its package.json; `null` when it declares none (releases before contract 2). */
  readonly shellContract: number | null;
}

/**
 * Finds the project's installed `@platform/harness` (as `upgrade` and `validate` find packages) and reads its version
 * and shell contract. Refuses with `precondition_failed` when the project has no harness installed.
 */
export function findHarnessPackage(
  projectDir: string,
  env: Readonly<Record<string, string | undefined>>,
): HarnessPackage {
  const installed = findInstalledPackage(projectDir, '@platform/harness');
  if (installed === undefined) {
    const manager = detectPackageManager(projectDir, env);
    throw new CliError('precondition_failed', `@platform/harness is not installed in ${projectDir}.`, {
      hint: `Install it in the project with \`${installCommand(manager)}\`, then run \`platform dev\` again.`,
    });
  }
  const platform = readPackageJson(installed.dir)?.platform as { shellContract?: unknown } | undefined;
  const contract = platform?.shellContract;
  return {
    dir: installed.dir,
    version: installed.version,
    shellContract: typeof contract === 'number' && Number.isInteger(contract) ? contract : null,
  };
}

/**
 * Refuses (`precondition_failed`, exit 9) when the harness speaks another shell contract than this
 * CLI generates, naming the side to upgrade: an older harness is upgraded in the project, an older
 * CLI is replaced by a newer one.
 */
export function checkShellContract(
  harness: HarnessPackage,
  projectDir: string,
  env: Readonly<Record<string, string | undefined>>,
): void {
  if (harness.shellContract === SHELL_CONTRACT) return;
  const manager = detectPackageManager(projectDir, env);
  const speaks =
    harness.shellContract === null
      ? 'declares no shell contract (older than contract 2)'
      : `speaks shell contract ${harness.shellContract}`;
  const mismatch = `@platform/harness ${harness.version} in this project ${speaks}, and @platform/cli ${CLI_VERSION} generates shell contract ${SHELL_CONTRACT}`;
  if (harness.shellContract === null || harness.shellContract < SHELL_CONTRACT) {
    throw new CliError('precondition_failed', `${mismatch}; the harness is older than this CLI.`, {
      hint: `Upgrade the harness: run \`${installCommand(manager)}\` (or \`platform upgrade\`, then \`${manager} install\`), then \`platform dev\` again.`,
    });
  }
  throw new CliError('precondition_failed', `${mismatch}; this CLI is older than the harness.`, {
    hint: `Upgrade the CLI: run \`${oneOffCommand(manager)} @platform/cli@latest upgrade\` and \`${manager} install\` (or install a newer @platform/cli), then \`platform dev\` again.`,
  });
}

function installCommand(manager: PackageManager): string {
  const range = PLATFORM_PINS['@platform/harness'];
  return `${manager === 'pnpm' ? 'pnpm add -D' : 'npm install -D'} @platform/harness@${range}`;
}
