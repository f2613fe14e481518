import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UpgradeReport } from '@platform/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistry } from './_e2e.js';
import { envelopeOf, run, tempDirectories, writeFiles } from './_helpers.js';

const tempDir = tempDirectories();

// A project on the 0.3 train, as CLI 0.2/0.3 scaffolded it.
const OLD_PACKAGE = {
  name: 'acme-notes',
  private: true,
  dependencies: { '@platform/sdk': '^0.3.0', '@platform/ui': '^0.3.1', react: '^19.0.0', zod: '^3.25.76' },
  devDependencies: { '@platform/cli': '^0.2.0', '@platform/harness': '^0.3.0', vitest: '^3.2.0' },
};

function project(pkg: object, files: Record<string, string> = {}): string {
  const dir = tempDir();
  writeFiles(dir, { 'package.json': `${JSON.stringify(pkg, null, 2)}\n`, ...files });
  return dir;
}

const EXPECTED_CHANGES = [
  { name: '@platform/sdk', section: 'dependencies', from: '^0.3.0', to: '^0.5.0' },
  { name: '@platform/ui', section: 'dependencies', from: '^0.3.1', to: '^0.5.0' },
  { name: '@platform/cli', section: 'devDependencies', from: '^0.2.0', to: '^0.4.0' },
  { name: '@platform/harness', section: 'devDependencies', from: '^0.3.0', to: '^0.5.0' },
  { name: 'next-intl', section: 'dependencies', from: null, to: '4.14.8' },
  { name: 'use-intl', section: 'overrides', from: null, to: '4.14.8' },
];

describe('platform upgrade', () => {
  it('--check reports what would change and the schema skew, and changes nothing', async () => {
    const dir = project(OLD_PACKAGE, {
      'node_modules/@platform/integration-schema/package.json': '{ "version": "0.3.4" }',
    });
    const before = readFileSync(join(dir, 'package.json'), 'utf8');
    const result = await run(['upgrade', '--check', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    const { data } = envelopeOf<UpgradeReport>(result);
    expect(data).toMatchObject({
      cli: '0.4.0',
      train: '0.5',
      applied: false,
      ahead: [],
      installCommand: 'npm install',
    });
    expect(data?.schema).toEqual({ bundled: '0.5.0', project: '0.3.4', skewed: false });
    expect(data?.changes).toEqual(EXPECTED_CHANGES);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(before);
  });

  it('moves the pinned @platform/* packages from the 0.3 train to 0.5 and adds next-intl; a second run changes nothing', async () => {
    const dir = project(OLD_PACKAGE);
    const result = await run(['upgrade'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Changed in package.json:');
    expect(result.stdout).toContain('Run `npm install` to install them.');
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg.dependencies).toEqual({
      '@platform/sdk': '^0.5.0',
      '@platform/ui': '^0.5.0',
      react: '^19.0.0',
      zod: '^3.25.76',
      'next-intl': '4.14.8',
    });
    expect(pkg.devDependencies).toEqual({
      '@platform/cli': '^0.4.0',
      '@platform/harness': '^0.5.0',
      vitest: '^3.2.0',
    });
    expect(pkg.overrides).toEqual({ 'use-intl': '4.14.8' });

    const again = await run(['upgrade', '--json'], { cwd: dir });
    expect(envelopeOf<UpgradeReport>(again).data).toMatchObject({ changes: [], applied: false });
  });

  it('moves a project on the 0.4 train (as CLI 0.3.3 scaffolded it) to 0.5, its 0.4 schema not skewed', async () => {
    const dir = project(
      {
        name: 'acme-notes',
        private: true,
        dependencies: {
          '@platform/sdk': '^0.4.0',
          '@platform/ui': '^0.4.0',
          'next-intl': '4.14.8',
          zod: '^4.6.7',
        },
        devDependencies: { '@platform/cli': '^0.3.3', '@platform/harness': '^0.4.0' },
        overrides: { 'use-intl': '4.14.8' },
      },
      { 'node_modules/@platform/integration-schema/package.json': '{ "version": "0.4.0" }' },
    );
    const result = await run(['upgrade', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    const { data } = envelopeOf<UpgradeReport>(result);
    expect(data?.schema).toEqual({ bundled: '0.5.0', project: '0.4.0', skewed: false });
    expect(data?.changes).toEqual([
      { name: '@platform/sdk', section: 'dependencies', from: '^0.4.0', to: '^0.5.0' },
      { name: '@platform/ui', section: 'dependencies', from: '^0.4.0', to: '^0.5.0' },
      { name: '@platform/cli', section: 'devDependencies', from: '^0.3.3', to: '^0.4.0' },
      { name: '@platform/harness', section: 'devDependencies', from: '^0.4.0', to: '^0.5.0' },
    ]);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg.dependencies).toEqual({
      '@platform/sdk': '^0.5.0',
      '@platform/ui': '^0.5.0',
      'next-intl': '4.14.8',
      zod: '^4.6.7',
    });
    expect(pkg.devDependencies).toEqual({ '@platform/cli': '^0.4.0', '@platform/harness': '^0.5.0' });
    expect(pkg.overrides).toEqual({ 'use-intl': '4.14.8' });
  });

  it('never moves a package down, and leaves ranges it cannot read alone', async () => {
    const dir = project({
      dependencies: { '@platform/sdk': '^0.5.2', '@platform/ui': 'workspace:*', 'next-intl': '4.14.8' },
      devDependencies: { '@platform/cli': '^0.4.5' },
    });
    const result = await run(['upgrade', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(envelopeOf<UpgradeReport>(result).data?.changes).toEqual([]);
  });

  it('refuses (exit 9) a project already past its train, naming the newer CLI to run', async () => {
    const dir = project({
      dependencies: { '@platform/sdk': '^0.6.0' },
      devDependencies: { '@platform/cli': '^0.3.0' },
    });
    const before = readFileSync(join(dir, 'package.json'), 'utf8');
    const check = await run(['upgrade', '--check', '--json'], { cwd: dir });
    expect(check.code).toBe(0);
    expect(envelopeOf<UpgradeReport>(check).data?.ahead).toEqual([
      { name: '@platform/sdk', range: '^0.6.0' },
    ]);

    const result = await run(['upgrade', '--json'], { cwd: dir });
    expect(result.code).toBe(9);
    expect(envelopeOf(result).error).toEqual({
      code: 'precondition_failed',
      message:
        "The project is past this CLI's train (0.5): @platform/sdk ^0.6.0. @platform/cli 0.4.0 does not move packages down.",
      hint: 'Run `npx @platform/cli@latest upgrade` to upgrade with the newest CLI instead.',
    });
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(before);
  });

  it('--check reports an installed schema newer than the bundled one as skewed; upgrade then refuses', async () => {
    const dir = project(
      { dependencies: { '@platform/sdk': '^0.5.0' } },
      { 'node_modules/@platform/integration-schema/package.json': '{ "version": "0.5.1" }' },
    );
    const check = await run(['upgrade', '--check'], { cwd: dir });
    expect(check.code).toBe(0);
    expect(check.stdout).toContain(
      "integration-schema: the project's 0.5.1 is newer than the bundled 0.5.0 (skewed)",
    );
    const result = await run(['upgrade', '--json'], { cwd: dir });
    expect(result.code).toBe(9);
    expect(envelopeOf(result).error?.code).toBe('precondition_failed');
  });

  it('fails with project_not_found where there is no package.json', async () => {
    const result = await run(['upgrade', '--json'], { cwd: tempDir() });
    expect(result.code).toBe(1);
    expect(envelopeOf(result).error?.code).toBe('project_not_found');
  });
});

describe('platform upgrade against the project registry', () => {
  let registry: Awaited<ReturnType<typeof startRegistry>>;

  // A host registry serving sdk and ui 0.5.0 and a CLI past this one's train (0.4), but no harness.
  beforeAll(async () => {
    const folder = tempDir();
    for (const [name, version] of [
      ['@platform/sdk', '0.5.0'],
      ['@platform/ui', '0.5.0'],
      ['@platform/integration-schema', '0.5.0'],
      ['@platform/cli', '0.4.0'],
      ['@platform/cli', '0.5.0'],
    ] as const) {
      const source = tempDir();
      writeFiles(source, { 'package.json': JSON.stringify({ name, version }) });
      mkdirSync(folder, { recursive: true });
      execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', folder], {
        cwd: source,
        stdio: 'ignore',
      });
    }
    registry = await startRegistry(folder);
  }, 60_000);
  afterAll(() => registry?.close());

  it("--check reads the .npmrc registry: targets it does not serve, and what is past this CLI's train", async () => {
    const dir = project(OLD_PACKAGE, { '.npmrc': `@platform:registry=${registry.url}/registry/\n` });
    const result = await run(['upgrade', '--check', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    const data = envelopeOf<UpgradeReport>(result).data;
    expect(data?.changes).toEqual(EXPECTED_CHANGES);
    expect(data?.registry).toEqual({
      url: `${registry.url}/registry/`,
      reachable: true,
      latest: {
        '@platform/sdk': '0.5.0',
        '@platform/ui': '0.5.0',
        '@platform/integration-schema': '0.5.0',
        '@platform/cli': '0.5.0',
      },
      versions: {
        '@platform/sdk': ['0.5.0'],
        '@platform/ui': ['0.5.0'],
        '@platform/integration-schema': ['0.5.0'],
        '@platform/cli': ['0.4.0', '0.5.0'],
      },
      unserved: [{ name: '@platform/harness', range: '^0.5.0' }],
      // CLI 0.5 is past this CLI (0.4.0) though not past the schema train (0.5): the CLI has its own.
      newer: [{ name: '@platform/cli', latest: '0.5.0' }],
    });

    const human = await run(['upgrade', '--check'], { cwd: dir });
    expect(human.stdout).toContain(`registry: ${registry.url}/registry/ (latest: sdk 0.5.0, ui 0.5.0`);
    expect(human.stdout).toContain(
      '@platform/harness ^0.5.0: the registry serves no matching version; installing would fail.',
    );
    expect(human.stdout).toContain('@platform/cli 0.5.0 is on the registry, past this CLI (0.4.0)');
  });

  it('goes on without the registry when it does not answer, and warns without an .npmrc line', async () => {
    const unreachable = project(OLD_PACKAGE, {
      '.npmrc': '@platform:registry=http://127.0.0.1:9/registry/\n',
    });
    const result = await run(['upgrade', '--check', '--json'], { cwd: unreachable });
    expect(result.code).toBe(0);
    const data = envelopeOf<UpgradeReport>(result).data;
    expect(data?.changes).toEqual(EXPECTED_CHANGES);
    expect(data?.registry).toMatchObject({ url: 'http://127.0.0.1:9/registry/', reachable: false });

    const none = await run(['upgrade', '--check'], { cwd: project(OLD_PACKAGE) });
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('No @platform:registry in .npmrc');
  });
});
