import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { installProject, LOCAL_SOURCE_SLUG } from '../install/installProject.js';
import { findSource } from '../store/integrations.js';
import { DATA_HELP, DATA_OPTION, type DataOptions, dataOptionsFrom, withHost } from './_openHost.js';
import { CliError, toCliError } from './CliError.js';
import type { Command, CommandResult } from './Command.js';
import { optionalString } from './parseArgs.js';

export interface InstallOptions extends DataOptions {
  readonly projectDir: string;
  /** A development source; default: platform.json's `source`, else `local` (created on first use). */
  readonly sourceSlug?: string | undefined;
}

export interface InstallResult {
  readonly source: { readonly slug: string; readonly stage: string };
  readonly installed: readonly { readonly slug: string; readonly version: number }[];
}

async function readManifest(projectDir: string): Promise<{ source?: unknown }> {
  const file = resolve(projectDir, 'platform.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new CliError(
      'invalid_project',
      `No platform.json in ${projectDir}.`,
      'Point install at a partner project folder (one with platform.json), for example `platform-host install examples/acme-notes`.',
    );
  }
  try {
    return JSON.parse(text) as { source?: unknown };
  } catch (error) {
    throw new CliError(
      'invalid_project',
      `${file} is not valid JSON: ${(error as Error).message}.`,
      'Fix the JSON in platform.json.',
    );
  }
}

/**
 * Builds every integration of a partner project and installs each as a `dev` version, live at
 * once on a development source.
 * @example const { installed } = await installIntegrations({ projectDir: 'examples/acme-notes', dataDir: '.platform-host' });
 */
export async function installIntegrations(options: InstallOptions): Promise<InstallResult> {
  const manifest = await readManifest(options.projectDir);
  const sourceSlug =
    options.sourceSlug ??
    (typeof manifest.source === 'string' ? manifest.source : undefined) ??
    LOCAL_SOURCE_SLUG;
  return withHost(options, 'install', async (host) => {
    const source = await findSource(host.db, sourceSlug);
    if (source === undefined && options.sourceSlug !== undefined && sourceSlug !== LOCAL_SOURCE_SLUG) {
      throw new CliError(
        'not_found',
        `No source "${sourceSlug}".`,
        `Create it with \`platform-host admin source create --slug ${sourceSlug} --name ${sourceSlug} --stage development\`, or drop --source to use "${LOCAL_SOURCE_SLUG}".`,
      );
    }
    if (source?.stage === 'production') {
      throw new CliError(
        'refused',
        `Source "${source.slug}" is a production source; install only targets development sources.`,
        'Pass --source with a development source, or publish to production sources through the gate (`platform publish`).',
      );
    }
    let result: Awaited<ReturnType<typeof installProject>>;
    try {
      result = await installProject({
        db: host.db,
        runtime: host.services.runtime,
        projectDir: options.projectDir,
        sourceSlug,
      });
    } catch (error) {
      throw installError(error);
    }
    return {
      source: { slug: result.source.slug, stage: result.source.stage },
      installed: result.versions.map((version) => ({ slug: version.slug, version: version.number })),
    };
  });
}

function installError(error: unknown): CliError {
  const converted = toCliError(error);
  if (converted.code !== 'internal_error') return converted;
  const message = (error as Error).message;
  // esbuild lists its errors on the error itself.
  if (Array.isArray((error as { errors?: unknown }).errors)) {
    return new CliError(
      'build_failed',
      `The project does not build:\n${message}`,
      'Fix the build errors above, then run install again.',
      {
        cause: error,
      },
    );
  }
  return new CliError(
    'install_failed',
    message,
    'Fix the project as the message says, then run install again.',
    { cause: error },
  );
}

export const installCommand: Command = {
  path: ['install'],
  summary: 'Build a partner project and install it as a dev version (live at once)',
  help: [
    'platform-host install <projectDir> [--source SLUG] [--data DIR] [--json]',
    '',
    '  <projectDir>        a folder with platform.json',
    '  --source SLUG       a development source (default: platform.json "source", else "local")',
    DATA_HELP,
  ].join('\n'),
  options: { ...DATA_OPTION, source: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  json: true,
  // Adding a project while serving is natural: a running serve installs it (admin channel).
  throughServe: true,
  async run(args, io): Promise<CommandResult<InstallResult>> {
    const result = await installIntegrations({
      ...dataOptionsFrom(args, io),
      projectDir: resolve(io.cwd, args.positionals[0]!),
      sourceSlug: optionalString(args, 'source'),
    });
    const lines = result.installed.map(
      (entry) => `installed ${entry.slug}@${entry.version} (source ${result.source.slug})`,
    );
    return { data: result, text: lines.join('\n') };
  },
};
