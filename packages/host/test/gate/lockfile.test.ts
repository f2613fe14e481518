import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pinLockfile } from '../../src/gate/_lockfile.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'platform-gate-lock-'));
  dirs.push(dir);
  return dir;
}

async function pin(packages: Record<string, unknown>) {
  const dir = await scratch();
  await writeFile(join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages }));
  const result = await pinLockfile(dir, {
    platform: 'http://127.0.0.1:8787/registry/',
    npm: 'https://mirror.example/npm/',
  });
  return { ...result, lock: JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8')) };
}

describe('pinLockfile', () => {
  it('sends @platform/* to the host, the public npm registry to the configured one, and keeps local files', async () => {
    const { findings, pins, lock } = await pin({
      '': { name: 'acme' },
      'node_modules/@platform/sdk': {
        version: '0.4.0',
        resolved: 'https://other-host.example/registry/@platform/sdk/-/sdk-0.4.0.tgz',
        integrity: 'sha512-abc',
      },
      'node_modules/sdk-alias': {
        name: '@platform/sdk',
        version: '0.4.0',
        resolved: 'https://x.example/a.tgz',
      },
      'node_modules/zod': { version: '4.6.7', resolved: 'https://registry.npmjs.org/zod/-/zod-4.6.7.tgz' },
      'node_modules/mirrored': {
        version: '1.0.0',
        resolved: 'https://mirror.example/npm/mirrored/-/mirrored-1.0.0.tgz',
      },
      'node_modules/vendored': { version: '1.0.0', resolved: 'file:vendor/vendored-1.0.0.tgz' },
      'packages/a': { name: 'a' },
      'node_modules/a': { resolved: 'packages/a', link: true },
    });
    expect(findings).toEqual([]);
    expect(pins).toEqual([
      { name: '@platform/sdk', version: '0.4.0', integrity: 'sha512-abc' },
      { name: '@platform/sdk', version: '0.4.0', integrity: undefined },
    ]);
    expect(lock.packages['node_modules/@platform/sdk'].resolved).toBe(
      'http://127.0.0.1:8787/registry/@platform/sdk/-/sdk-0.4.0.tgz',
    );
    expect(lock.packages['node_modules/sdk-alias'].resolved).toBe(
      'http://127.0.0.1:8787/registry/@platform/sdk/-/sdk-0.4.0.tgz',
    );
    expect(lock.packages['node_modules/zod'].resolved).toBe('https://mirror.example/npm/zod/-/zod-4.6.7.tgz');
    expect(lock.packages['node_modules/vendored'].resolved).toBe('file:vendor/vendored-1.0.0.tgz');
  });

  it('refuses @platform/* names given to other packages, workspaces outside, git sources and old lockfiles', async () => {
    const { findings } = await pin({
      'node_modules/@platform/sdk': { name: 'evil-sdk', version: '1.0.0' },
      '../elsewhere': { name: 'elsewhere' },
      'node_modules/from-git': { version: '1.0.0', resolved: 'git+ssh://git@github.com/acme/x.git#abc' },
    });
    expect(findings.map((item) => item.code)).toEqual([
      'install.platform-alias',
      'install.outside-project',
      'install.unsupported-source',
    ]);
    expect(findings[0]!.message).toBe(
      'package-lock.json installs evil-sdk@1.0.0 under the name @platform/sdk',
    );
    const dir = await scratch();
    await writeFile(join(dir, 'package-lock.json'), '{"lockfileVersion":1,"dependencies":{}}');
    const old = await pinLockfile(dir, { platform: 'http://h/registry/', npm: 'https://r/' });
    expect(old.findings[0]).toMatchObject({
      code: 'install.lockfile',
      message: 'package-lock.json is lockfileVersion 1; the gate reads version 2 or 3',
    });
  });
});
