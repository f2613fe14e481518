import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** The npm settings of the user running the host, read once: the cache (fast repeat installs), the registry. */
export interface NpmDefaults {
  readonly cache: string | undefined;
  readonly registry: string;
}

let defaults: Promise<NpmDefaults> | undefined;

/** `npm config get cache registry`, once per process. */
export function npmDefaults(): Promise<NpmDefaults> {
  defaults ??= new Promise((resolve) => {
    execFile(
      'npm',
      ['config', 'get', 'cache', 'registry'],
      { cwd: tmpdir(), timeout: 30_000 },
      (error, stdout) => {
        const values = new Map(
          (error === null ? stdout : '')
            .split('\n')
            .map((line) => line.trim().split('=') as [string, string | undefined])
            .filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== ''),
        );
        resolve({
          cache: values.get('cache'),
          registry: values.get('registry') ?? 'https://registry.npmjs.org/',
        });
      },
    );
  });
  return defaults;
}

// What npm may need to reach a registry from here; paths and proxies, none of the host's secrets.
const INSTALL_PASSTHROUGH = [
  'NODE_EXTRA_CA_CERTS',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

/**
 * The whole environment of a gate child process: PATH (this Node first), HOME and TMPDIR inside
 * `workDir`, no colours, and for `install` the npm cache and what reaching a registry needs.
 * Nothing else of the host's environment (no DATABASE_URL, no PLATFORM_* variables) gets through.
 */
export async function childEnv(
  workDir: string,
  options: { install?: boolean } = {},
): Promise<Record<string, string>> {
  const home = join(workDir, 'home');
  const tmp = join(workDir, 'tmp');
  // Made once, before any partner code runs (afterwards the host creates nothing in them).
  if (options.install === true) {
    await mkdir(home, { recursive: true });
    await mkdir(tmp, { recursive: true });
  }
  const env: Record<string, string> = {
    PATH: [dirname(process.execPath), process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin'].join(delimiter),
    HOME: home,
    TMPDIR: tmp,
    LANG: 'C.UTF-8',
    CI: 'true',
    NO_COLOR: '1',
  };
  if (options.install === true) {
    const { cache } = await npmDefaults();
    if (cache !== undefined) env.npm_config_cache = cache;
    for (const name of INSTALL_PASSTHROUGH) {
      const value = process.env[name];
      if (value !== undefined) env[name] = value;
    }
  }
  return env;
}
