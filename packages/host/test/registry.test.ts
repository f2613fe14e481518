import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryDirOf } from '../src/createHost.js';
import { createHostApp } from '../src/createHostApp.js';
import { DEFAULT_LIMITS, type HostServices } from '../src/HostServices.js';
import { readPackageJson, TarballError } from '../src/registry/readPackageJson.js';
import { openRegistryFolder } from '../src/registry/registryFolder.js';
import { registryRoutes } from '../src/registry/registryRoutes.js';

const silent = pino({ level: 'silent' });

let root: string;
let dir: string;

/** `npm pack` of a minimal package: the real format the registry reads. */
async function pack(name: string, version: string, extra: Record<string, unknown> = {}): Promise<string> {
  const source = join(root, 'src', `${name.replace('/', '+')}-${version}`);
  await mkdir(source, { recursive: true });
  await writeFile(join(source, 'package.json'), JSON.stringify({ name, version, ...extra }));
  await writeFile(join(source, 'index.js'), `export default ${JSON.stringify(version)};\n`);
  const output = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
    cwd: source,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return join(dir, (JSON.parse(output) as { filename: string }[])[0]!.filename);
}

const json = async (response: Response) => (await response.json()) as Record<string, any>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'platform-registry-'));
  dir = join(root, 'registry');
  await mkdir(dir);
  await pack('@platform/sdk', '0.4.0', { dependencies: { '@platform/integration-schema': '0.4.0' } });
  await pack('@platform/sdk', '0.3.1');
  await pack('@platform/sdk', '0.5.0-rc.1');
  await pack('@platform/integration-schema', '0.4.0');
  await pack('left-pad', '1.0.0');
  await writeFile(join(dir, 'broken.tgz'), 'not a tarball');
  // npm pack refuses such a version: a packed one, unpacked, its version edited, packed again by tar.
  const work = join(root, 'nightly');
  await mkdir(work);
  await tar.x({ file: await pack('@platform/sdk', '0.0.1'), cwd: work });
  await writeFile(
    join(work, 'package', 'package.json'),
    JSON.stringify({ name: '@platform/sdk', version: 'nightly' }),
  );
  await rm(join(dir, 'platform-sdk-0.0.1.tgz'));
  await tar.c({ gzip: true, file: join(dir, 'platform-sdk-nightly.tgz'), cwd: work }, ['package']);
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the registry routes', () => {
  const skipped: string[] = [];
  const app = () =>
    registryRoutes({ folder: openRegistryFolder(dir, { onSkip: (file) => skipped.push(file) }) });

  it('serves a packument by its encoded and its plain name', async () => {
    const registry = app();
    for (const path of [
      '/registry/@platform%2fsdk',
      '/registry/@platform%2Fsdk',
      '/registry/@platform/sdk',
    ]) {
      const response = await registry.request(`http://127.0.0.1:8787${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const doc = await json(response);
      expect(doc.name).toBe('@platform/sdk');
      // The highest release, not the prerelease.
      expect(doc['dist-tags']).toEqual({ latest: '0.4.0' });
      expect(Object.keys(doc.versions)).toEqual(['0.3.1', '0.4.0', '0.5.0-rc.1']);
      expect(Object.keys(doc.time)).toEqual(expect.arrayContaining(['created', 'modified', '0.4.0']));
    }
    // Skipped, and named: a tarball that is no tarball, and one whose version npm would refuse.
    expect(skipped).toEqual([join(dir, 'broken.tgz'), join(dir, 'platform-sdk-nightly.tgz')]);
  });

  it('gives each version its package.json with dist: absolute tarball URL, sha512 integrity, sha1 shasum', async () => {
    const doc = await json(await app().request('http://127.0.0.1:8787/registry/@platform%2fsdk'));
    const version = doc.versions['0.4.0'];
    const bytes = await readFile(join(dir, 'platform-sdk-0.4.0.tgz'));
    expect(version).toMatchObject({
      name: '@platform/sdk',
      version: '0.4.0',
      _id: '@platform/sdk@0.4.0',
      dependencies: { '@platform/integration-schema': '0.4.0' },
      dist: {
        tarball: 'http://127.0.0.1:8787/registry/@platform/sdk/-/sdk-0.4.0.tgz',
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
      },
    });
  });

  it('builds tarball URLs from the public origin when there is one', async () => {
    const registry = registryRoutes({
      folder: openRegistryFolder(dir),
      publicOrigin: () => 'https://host.example/',
    });
    const doc = await json(await registry.request('http://10.0.0.5:8787/registry/@platform/sdk'));
    expect(doc.versions['0.4.0'].dist.tarball).toBe(
      'https://host.example/registry/@platform/sdk/-/sdk-0.4.0.tgz',
    );
  });

  it('serves one version by number or dist-tag', async () => {
    const registry = app();
    expect((await json(await registry.request('/registry/@platform/sdk/0.3.1'))).version).toBe('0.3.1');
    expect((await json(await registry.request('/registry/@platform%2fsdk/latest'))).version).toBe('0.4.0');
    expect((await registry.request('/registry/@platform/sdk/9.9.9')).status).toBe(404);
  });

  it('serves the tarball bytes, and HEAD without a body', async () => {
    const registry = app();
    const bytes = await readFile(join(dir, 'platform-sdk-0.4.0.tgz'));
    const response = await registry.request('/registry/@platform/sdk/-/sdk-0.4.0.tgz');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    const encoded = await registry.request('/registry/@platform%2fsdk/-/sdk-0.4.0.tgz');
    expect(encoded.status).toBe(200);

    const head = await registry.request('/registry/@platform/sdk/-/sdk-0.4.0.tgz', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect(await head.text()).toBe('');
    const headDoc = await registry.request('/registry/@platform%2fsdk', { method: 'HEAD' });
    expect(headDoc.status).toBe(200);
    expect(await headDoc.text()).toBe('');
  });

  it("answers npm's 404 for unknown packages, versions, other scopes and other paths", async () => {
    const registry = app();
    for (const path of [
      '/registry/@platform%2fnope',
      '/registry/@platform/sdk/-/sdk-9.9.9.tgz',
      '/registry/@platform/sdk/-/platform-sdk-0.4.0.tgz',
      '/registry/left-pad',
      '/registry/@other%2fsdk',
      '/registry/',
      '/registry/-/v1/search?text=sdk',
      '/registry/%E0%A4%A',
    ]) {
      const response = await registry.request(path);
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toEqual({ error: 'Not found' });
    }
  });

  it('refuses writes with 405', async () => {
    const registry = app();
    for (const method of ['PUT', 'DELETE', 'POST', 'PATCH']) {
      const response = await registry.request('/registry/@platform%2fsdk', { method, body: '{}' });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect((await json(response)).error).toMatch(/read-only/);
    }
  });

  it('sees tarballs added and removed while it runs', async () => {
    const registry = app();
    expect((await registry.request('/registry/@platform/ui')).status).toBe(404);
    const file = await pack('@platform/ui', '0.4.0');
    expect((await json(await registry.request('/registry/@platform/ui')))['dist-tags'].latest).toBe('0.4.0');
    await rm(file);
    expect((await registry.request('/registry/@platform/ui')).status).toBe(404);
  });
});

describe('readPackageJson', () => {
  it('reads ustar with a prefix, pax and GNU long names, and refuses what is not a package', async () => {
    const bytes = await readFile(join(dir, 'platform-sdk-0.4.0.tgz'));
    expect(readPackageJson(bytes)).toMatchObject({ name: '@platform/sdk', version: '0.4.0' });
    expect(() => readPackageJson(Buffer.from('nope'))).toThrow(TarballError);
    expect(() => readPackageJson(gzipSync(Buffer.alloc(1024)))).toThrow(/no package\/package.json/);
    // GNU tar's own archive of a folder named otherwise (npm reads one folder deep).
    const other = join(root, 'gnu');
    await mkdir(join(other, 'some-folder'), { recursive: true });
    await writeFile(join(other, 'some-folder', 'package.json'), '{"name":"@platform/x","version":"1.0.0"}');
    execFileSync('tar', ['-czf', join(root, 'gnu.tgz'), '-C', other, 'some-folder']);
    expect(readPackageJson(await readFile(join(root, 'gnu.tgz')))).toEqual({
      name: '@platform/x',
      version: '1.0.0',
    });
  });
});

describe('the host', () => {
  it('mounts the registry under /registry; its folder: the option, PLATFORM_REGISTRY_DIR, else <data>/registry', async () => {
    const app = createHostApp({
      logger: silent,
      runtime: { isolated: false },
      limits: DEFAULT_LIMITS,
      publicOrigin: 'https://host.example',
      registry: openRegistryFolder(dir),
    } as unknown as HostServices);
    const doc = await json(await app.request('/registry/@platform%2fsdk'));
    expect(doc.versions['0.3.1'].dist.tarball).toBe(
      'https://host.example/registry/@platform/sdk/-/sdk-0.3.1.tgz',
    );
    // The host's own 404 envelope stays outside /registry.
    expect((await json(await app.request('/registrynope'))).ok).toBe(false);

    expect(registryDirOf({ dataDir: '/srv/data', env: {} })).toBe('/srv/data/registry');
    expect(registryDirOf({ dataDir: '/srv/data', env: { PLATFORM_REGISTRY_DIR: '/srv/tgz' } })).toBe(
      '/srv/tgz',
    );
    expect(
      registryDirOf({ dataDir: '/srv/data', registryDir: '/x', env: { PLATFORM_REGISTRY_DIR: '/y' } }),
    ).toBe('/x');
    expect(registryDirOf({ env: {} })).toBe(
      process.env.PLATFORM_REGISTRY_DIR ? resolve(process.env.PLATFORM_REGISTRY_DIR) : undefined,
    );
  });
});
