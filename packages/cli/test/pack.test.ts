import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from 'tar';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/cli/CliError.js';
import { packProject } from '../src/host/packProject.js';
import { tempDirectories, writeFiles } from './_helpers.js';

const tempDir = tempDirectories();

async function entriesOf(archive: Buffer): Promise<string[]> {
  const entries: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const parser = new Parser({
      onReadEntry(entry) {
        entries.push(entry.path);
        entry.resume();
      },
    });
    parser.on('end', resolve);
    parser.on('error', reject);
    parser.end(archive);
  });
  return entries;
}

const BASE = {
  'platform.json': '{ "integrations": [{ "slug": "acme", "entry": "src/acme/integration.ts" }] }\n',
  'package.json': '{ "name": "acme" }\n',
  'package-lock.json': '{}\n',
  'tsconfig.json': '{}\n',
  'src/acme/integration.ts': 'export default { slug: "acme" };\n',
};

describe('packProject', () => {
  it('packs the project files and leaves out dependencies, build output, local state and .env files', async () => {
    const dir = tempDir();
    writeFiles(dir, {
      ...BASE,
      'node_modules/zod/package.json': '{}\n',
      'src/acme/node_modules/x/index.js': '\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      'dist/index.js': '\n',
      'coverage/lcov.info': '\n',
      '.platform/local-secrets.json': '{ "secret": "s" }\n',
      '.platform/shell/index.html': '\n',
      '.env': 'A=1\n',
      '.env.production': 'A=1\n',
      'src/acme/.env.test': 'A=1\n',
      // Only the root's dist/coverage are build output; a source folder named dist is kept.
      'src/acme/dist/helper.ts': 'export {};\n',
      'docs/setup.md': '# Setup\n',
    });
    const packed = await packProject(dir);
    expect(packed.files).toEqual([
      'docs/setup.md',
      'package-lock.json',
      'package.json',
      'platform.json',
      'src/acme/dist/helper.ts',
      'src/acme/integration.ts',
      'tsconfig.json',
    ]);
    expect(packed.omitted).toEqual([]);
    // A gzip stream (magic bytes 1f 8b) whose tar lists exactly those files.
    expect([...packed.archive.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expect(await entriesOf(packed.archive)).toEqual(packed.files);
  });

  it('honours the root .gitignore (names, anchored paths, folders, globs, negation) but never drops the lockfile', async () => {
    const dir = tempDir();
    writeFiles(dir, {
      ...BASE,
      '.gitignore': [
        '# comments and blank lines are ignored',
        '',
        '*.log',
        '!keep.log',
        '/build/',
        'tmp/',
        'docs/**/draft.md',
        'package-lock.json',
        'src/acme/generated-*.ts',
      ].join('\n'),
      'debug.log': '\n',
      'src/acme/trace.log': '\n',
      'keep.log': '\n',
      'build/out.js': '\n',
      'src/build/kept.ts': '\n',
      'src/acme/tmp/cache.json': '\n',
      tmp: '\n',
      'docs/a/b/draft.md': '\n',
      'docs/final.md': '\n',
      'src/acme/generated-types.ts': '\n',
    });
    const packed = await packProject(dir);
    expect(packed.files).toEqual([
      '.gitignore',
      'docs/final.md',
      'keep.log',
      'package-lock.json',
      'package.json',
      'platform.json',
      'src/acme/integration.ts',
      'src/build/kept.ts',
      'tmp',
      'tsconfig.json',
    ]);
  });

  it('leaves out symbolic links and an .npmrc holding credentials, and says so', async () => {
    const dir = tempDir();
    writeFiles(dir, {
      ...BASE,
      '.npmrc':
        '@platform:registry=https://platform.example.com/registry/\n//platform.example.com/registry/:_authToken=secret\n',
      'src/acme/.npmrc': '@platform:registry=https://platform.example.com/registry/\n',
    });
    symlinkSync('/etc/hostname', join(dir, 'src', 'acme', 'outside.txt'));
    const packed = await packProject(dir);
    expect(packed.files).toContain('src/acme/.npmrc');
    expect(packed.files).not.toContain('.npmrc');
    expect(packed.omitted).toEqual([
      { path: '.npmrc', reason: 'it holds registry credentials' },
      { path: 'src/acme/outside.txt', reason: 'a symbolic link' },
    ]);
  });

  it('requires package-lock.json, with the hint to run npm install', async () => {
    const dir = tempDir();
    writeFiles(dir, BASE);
    rmSync(join(dir, 'package-lock.json'));
    const error = await packProject(dir).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(CliError);
    expect(error).toMatchObject({
      code: 'lockfile_missing',
      hint: 'Run `npm install` in the project to write package-lock.json, then run the command again.',
    });
  });

  it('requires platform.json', async () => {
    const dir = tempDir();
    writeFiles(dir, { 'package-lock.json': '{}\n' });
    await expect(packProject(dir)).rejects.toMatchObject({ code: 'project_not_found' });
  });
});
