import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InitReport, TestReport, ValidateReport } from '@platform/cli';
import { describe, expect, it } from 'vitest';
import {
  cleanEnv,
  envelopeOf,
  linkRepoNodeModules,
  REPO_ROOT,
  run,
  tempDirectories,
  writeFiles,
} from './_helpers.js';

const tempDir = tempDirectories();
const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');
const readJson = (dir: string, path: string) => JSON.parse(read(dir, path)) as Record<string, any>;

async function init(args: string[], cwd = tempDir(), env = cleanEnv()) {
  const result = await run(['init', ...args, '--json'], { cwd, env });
  return { cwd, result, envelope: envelopeOf<InitReport>(result) };
}

describe('platform init', () => {
  it('scaffolds a project named after its directory', async () => {
    const { cwd, result, envelope } = await init([
      'acme-notes',
      '--docs',
      'docs/setup.md',
      '--docs',
      'https://acme.example/help',
    ]);
    expect(result.code).toBe(0);
    const dir = join(cwd, 'acme-notes');
    expect(envelope.data).toEqual({
      directory: dir,
      slug: 'acme-notes',
      files: [
        '.gitignore',
        '.npmrc',
        'README.md',
        'biome.json',
        'docs/setup.md',
        'harness.config.ts',
        'package.json',
        'platform.json',
        'pnpm-workspace.yaml',
        'src/acme-notes/integration.test.ts',
        'src/acme-notes/integration.ts',
        'src/acme-notes/widgets/AcmeNotesWidget.tsx',
        'tsconfig.json',
      ],
      docs: ['docs/setup.md', 'https://acme.example/help'],
      packageManager: 'npm',
      nextSteps: ['cd acme-notes', 'npm install', 'npx platform validate', 'npx platform test'],
      registry: 'http://127.0.0.1:8787/registry/',
      hostDefaulted: true,
    });
    // @platform/* never comes from the public registry, whose @platform scope is someone else's.
    expect(read(dir, '.npmrc').split('\n')).toContain('@platform:registry=http://127.0.0.1:8787/registry/');
    expect(read(dir, 'README.md')).toContain('registry, http://127.0.0.1:8787/registry/ (set in `.npmrc`)');

    expect(readJson(dir, 'platform.json')).toEqual({
      integrations: [{ slug: 'acme-notes', entry: 'src/acme-notes/integration.ts' }],
      docs: ['docs/setup.md', 'https://acme.example/help'],
    });
    expect(read(dir, 'docs/setup.md')).toMatch(/^# Acme Notes: Setup\n/);

    const pkg = readJson(dir, 'package.json');
    expect(pkg.dependencies).toEqual({
      '@platform/sdk': '^0.5.0',
      '@platform/ui': '^0.5.0',
      '@tanstack/react-query': '^5.108.0',
      'next-intl': '4.14.8',
      react: '^19.3.1',
      'react-dom': '^19.3.1',
      zod: '^4.6.7',
    });
    expect(pkg.devDependencies).toMatchObject({
      '@platform/cli': '^0.4.0',
      '@platform/harness': '^0.5.0',
      vitest: '^4.1.12',
    });
    expect(pkg.overrides).toEqual({ 'use-intl': '4.14.8' });

    const compilerOptions = readJson(dir, 'tsconfig.json').compilerOptions;
    expect(compilerOptions).toMatchObject({ strict: true, noUncheckedIndexedAccess: true });

    const workspace = read(dir, 'pnpm-workspace.yaml');
    expect(workspace).toMatch(/^onlyBuiltDependencies:\n {2}- esbuild$/m);
    expect(workspace).toMatch(/^allowBuilds:\n {2}esbuild: true$/m);
    expect(read(dir, '.gitignore').split('\n')).toContain('.platform/local-secrets.json');

    const harness = read(dir, 'harness.config.ts');
    expect(harness).toContain("from '@platform/harness'");
    for (const variant of ['default', 'empty', 'error'])
      expect(harness).toMatch(new RegExp(`^ {6}${variant}: \\[`, 'm'));

    const integration = read(dir, 'src/acme-notes/integration.ts');
    expect(integration).toContain("slug: 'acme-notes'");
    expect(integration).toContain("id: 'acme-notes-items'");
    expect(integration).toContain("'list-items': {");
    expect(integration).toContain('storage: {');
  });

  it('takes the slug from --slug, and prints human output with next steps for pnpm', async () => {
    const cwd = tempDir();
    const result = await run(['init', '--slug', '3d-prints'], {
      cwd,
      env: cleanEnv({ npm_config_user_agent: 'pnpm/10.34.9 npm/? node/v20.20.2' }),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Created 3d-prints in ${cwd}`);
    expect(result.stdout).toContain('  src/3d-prints/widgets/Integration3dPrintsWidget.tsx');
    expect(result.stdout).toMatch(
      /Next:\n {2}pnpm install\n {2}pnpm exec platform validate\n {2}pnpm exec platform test\n/,
    );
    expect(result.stdout).toContain(
      '@platform/* installs from http://127.0.0.1:8787/registry/ (the local host `npm start` serves; pass --host <url> for another)',
    );
  });

  it('points .npmrc at the --host registry, keeping the other lines of an existing .npmrc', async () => {
    const cwd = tempDir();
    writeFiles(cwd, { '.npmrc': 'save-exact=true\n@platform:registry=https://registry.npmjs.org/\n' });
    const { result, envelope } = await init(
      ['--slug', 'acme', '--host', 'https://platform.example.com/base/', '--force'],
      cwd,
    );
    expect(result.code).toBe(0);
    expect(envelope.data).toMatchObject({
      registry: 'https://platform.example.com/base/registry/',
      hostDefaulted: false,
    });
    expect(read(cwd, '.npmrc')).toBe(
      'save-exact=true\n# @platform/* installs from the Platform host, never from the public npm registry.\n@platform:registry=https://platform.example.com/base/registry/\n',
    );

    const human = await run(['init', 'other', '--host', 'http://localhost:9000'], { cwd, env: cleanEnv() });
    expect(human.stdout).toContain('@platform/* installs from http://localhost:9000/registry/\n');
    expect(read(join(cwd, 'other'), '.npmrc')).toContain(
      '@platform:registry=http://localhost:9000/registry/\n',
    );
  });

  it('refuses a non-empty directory without --force, and with it keeps the files it does not own', async () => {
    const cwd = tempDir();
    writeFiles(cwd, { 'notes.txt': 'mine\n', 'docs/setup.md': '# My own setup page\n' });
    const refused = await init(['--slug', 'acme', '--docs', 'docs/setup.md'], cwd);
    expect(refused.result.code).toBe(1);
    expect(refused.envelope.error).toEqual({
      code: 'directory_not_empty',
      message: `${cwd} is not empty (docs, notes.txt).`,
      hint: 'Choose an empty or new directory, or pass --force to write the scaffold into it (files with the same names are overwritten).',
    });
    expect(() => read(cwd, 'platform.json')).toThrow();

    const forced = await init(['--slug', 'acme', '--docs', 'docs/setup.md', '--force'], cwd);
    expect(forced.result.code).toBe(0);
    expect(read(cwd, 'notes.txt')).toBe('mine\n');
    expect(read(cwd, 'docs/setup.md')).toBe('# My own setup page\n');
    expect(readJson(cwd, 'platform.json').integrations).toEqual([
      { slug: 'acme', entry: 'src/acme/integration.ts' },
    ]);
  });

  it.each([
    [['--slug', 'Acme_Notes'], 'slug "Acme_Notes" is not kebab-case'],
    [
      ['--slug', 'acme', '--docs', '../outside.md'],
      '--docs "../outside.md" is neither a URL nor a path inside the project.',
    ],
    [
      ['--slug', 'acme', '--host', 'ftp://platform.example.com'],
      '--host "ftp://platform.example.com" is not',
    ],
    [['--slug', 'acme', '--host', 'platform.example.com'], '--host "platform.example.com" is not'],
  ])('refuses %j with exit 2', async (args, message) => {
    const { result, envelope } = await init(args);
    expect(result.code).toBe(2);
    expect(envelope.error?.code).toBe('usage');
    expect(envelope.error?.message).toContain(message);
  });
});

describe('the scaffolded project', () => {
  // The repo's own packages stand in for an install here; e2e.test.ts installs from tarballs.
  async function scaffold(): Promise<string> {
    const cwd = tempDir();
    const { result } = await init(['--slug', 'acme-notes', '--docs', 'docs/setup.md'], cwd);
    expect(result.code).toBe(0);
    linkRepoNodeModules(cwd);
    return cwd;
  }

  it('passes platform validate and platform test', async () => {
    const dir = await scaffold();
    const validated = await run(['validate', '--json'], { cwd: dir });
    expect(validated.code).toBe(0);
    expect(envelopeOf<ValidateReport>(validated).data?.findings).toEqual([]);
    const tested = await run(['test', '--json'], { cwd: dir });
    expect(tested.code).toBe(0);
    expect(envelopeOf<TestReport>(tested).data?.counts).toMatchObject({ total: 2, passed: 2, failed: 0 });
  });

  it('passes its own lint preset, which bans i18next imports', async () => {
    const dir = await scaffold();
    const biome = join(REPO_ROOT, 'node_modules', '.bin', 'biome');
    const clean = await run(['check', '.'], { cwd: dir, command: biome });
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);

    writeFileSync(
      join(dir, 'src', 'i18n.ts'),
      "import i18n from 'i18next';\nimport { Trans } from 'react-i18next';\nexport const used = [i18n, Trans];\n",
    );
    const banned = await run(['lint', 'src/i18n.ts'], { cwd: dir, command: biome });
    expect(banned.code).not.toBe(0);
    expect(banned.stdout + banned.stderr).toMatch(
      /noRestrictedImports[\s\S]*import from next-intl, never i18next[\s\S]*noRestrictedImports/,
    );
  });
});
