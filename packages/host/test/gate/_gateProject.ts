// The gate tests' setup: the host's registry routes serving freshly packed @platform/integration-schema
// and @platform/sdk on 127.0.0.1, and partner projects made from fixtures/gate/clean (plus per-test
// overlays), locked against that registry and packed as the CLI would upload them.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import { create, Header } from 'tar';
import { openRegistryFolder } from '../../src/registry/registryFolder.js';
import { registryRoutes } from '../../src/registry/registryRoutes.js';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
// Its package.json holds vite at 8.3.8 (`overrides`), as the CLI does: vitest 4.1.12 would take vite
// 8.4.0, whose optional napi-windows-process-start-time the registry does not serve, so the lockfile
// `npm install` writes lacks it and the gate's `npm ci` refuses that lockfile as out of sync.
export const CLEAN_FIXTURE = fileURLToPath(new URL('../fixtures/gate/clean/', import.meta.url));

/** npm as a user runs it, minus what the test runner put into our environment. */
export function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(VITEST|NODE_OPTIONS$|TEST$)/.test(key)) env[key] = value;
  }
  return env;
}

export interface GateRegistry {
  /** `http://127.0.0.1:<port>/registry/` */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Packs the workspace's integration-schema and sdk (built by the suite's global setup) into `dir`
 * and serves them as the host does, under /registry/.
 */
export async function startGateRegistry(dir: string): Promise<GateRegistry> {
  await mkdir(dir, { recursive: true });
  await run(
    'npm',
    [
      'pack',
      '--ignore-scripts',
      '--pack-destination',
      dir,
      '-w',
      'packages/integration-schema',
      '-w',
      'packages/sdk',
    ],
    { cwd: REPO_ROOT, env: npmEnv() },
  );
  const app = registryRoutes({ folder: openRegistryFolder(dir) });
  const server = await new Promise<Server>((resolve) => {
    const listening = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(listening as Server),
    ) as Server;
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/registry/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Files to add (a string) or remove (null) over the clean fixture. */
export type Overlay = Record<string, string | null>;

/**
 * The clean fixture copied to a temporary folder with `overlay` applied, its local dependency
 * packed into vendor/, and a package-lock.json written against `registry` (`resolved` URLs kept)
 * unless `lockfile` is given. Returns the folder.
 */
export async function makeProject(
  registry: string,
  overlay: Overlay = {},
  lockfile?: string,
): Promise<{ dir: string; lockfile: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-gate-project-'));
  await cp(CLEAN_FIXTURE, dir, { recursive: true });
  for (const [path, content] of Object.entries(overlay)) {
    if (content === null) await rm(join(dir, path), { force: true });
    else {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), content);
    }
  }
  await run('npm', ['pack', '--ignore-scripts', '--pack-destination', join(dir, 'vendor')], {
    cwd: join(dir, 'vendor', 'postinstall-probe'),
    env: npmEnv(),
  });
  // What `platform init --host` writes; the gate overwrites it.
  await writeFile(join(dir, '.npmrc'), `@platform:registry=${registry}\n`);
  if (lockfile === undefined) {
    await run(
      'npm',
      [
        'install',
        '--package-lock-only',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--omit-lockfile-registry-resolved=false',
      ],
      { cwd: dir, env: npmEnv() },
    );
  } else {
    await writeFile(join(dir, 'package-lock.json'), lockfile);
  }
  return { dir, lockfile: await readFile(join(dir, 'package-lock.json'), 'utf8') };
}

/** `tar -czf` of a project folder, as an upload. */
export async function packProject(dir: string): Promise<Buffer> {
  const file = join(await mkdtemp(join(tmpdir(), 'platform-gate-upload-')), 'project.tgz');
  await create({ gzip: true, cwd: dir, file, portable: true }, ['.']);
  const bytes = await readFile(file);
  await rm(dirname(file), { recursive: true, force: true });
  return bytes;
}

/** One entry of a hand-made archive: any path and type, as a hostile client could send. */
export interface RawEntry {
  readonly path: string;
  readonly type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'CharacterDevice' | 'FIFO';
  readonly body?: string;
  readonly linkpath?: string;
}

/** A gzipped tar written header by header, with nothing normalised away. */
export function rawTarGz(entries: readonly RawEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = Buffer.from(entry.body ?? '');
    const type = entry.type ?? 'File';
    const header = new Header({
      path: entry.path,
      type,
      size: type === 'File' ? body.length : 0,
      mode: type === 'Directory' ? 0o755 : 0o644,
      mtime: new Date(0),
      ...(entry.linkpath === undefined ? {} : { linkpath: entry.linkpath }),
    });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block);
    if (type === 'File' && body.length > 0) {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

/** The smallest archive inspectArchive accepts, plus `extra` entries. */
export function minimalArchive(extra: readonly RawEntry[] = [], without: readonly string[] = []): Buffer {
  const base: RawEntry[] = [
    {
      path: 'platform.json',
      body: JSON.stringify({
        integrations: [{ slug: 'acme-notes', entry: './src/acme-notes/integration.ts' }],
      }),
    },
    { path: 'package.json', body: '{"name":"acme","version":"1.0.0"}' },
    { path: 'package-lock.json', body: '{"lockfileVersion":3,"packages":{}}' },
    { path: 'src/', type: 'Directory' },
    { path: 'src/acme-notes/integration.ts', body: 'export default {};\n' },
  ];
  return rawTarGz([...base.filter((entry) => !without.includes(entry.path)), ...extra]);
}
