import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { unpackArchive } from '../../src/gate/_unpackArchive.js';
import { ArchiveError, inspectArchive } from '../../src/gate/index.js';
import { minimalArchive, type RawEntry, rawTarGz } from './_gateProject.js';

async function refusal(
  archive: Buffer,
  limits?: Parameters<typeof inspectArchive>[1],
): Promise<ArchiveError> {
  try {
    await inspectArchive(archive, limits);
  } catch (error) {
    if (error instanceof ArchiveError) return error;
    throw error;
  }
  throw new Error('expected an ArchiveError');
}

describe('inspectArchive', () => {
  it('reads the manifest and the file list of a project, writing nothing', async () => {
    const contents = await inspectArchive(
      minimalArchive([
        { path: './README.md', body: '# acme\n' },
        { path: 'src/acme-notes/./util.ts', body: '' },
      ]),
    );
    expect(contents.manifest).toEqual({
      integrations: [
        {
          slug: 'acme-notes',
          entry: 'src/acme-notes/integration.ts',
          raw: { slug: 'acme-notes', entry: './src/acme-notes/integration.ts' },
        },
      ],
    });
    expect(contents.files).toEqual([
      'platform.json',
      'package.json',
      'package-lock.json',
      'src/acme-notes/integration.ts',
      'README.md',
      'src/acme-notes/util.ts',
    ]);
  });

  it('keeps the manifest source', async () => {
    const archive = rawTarGz([
      {
        path: 'platform.json',
        body: '{"integrations":[{"slug":"a","entry":"a.ts"}],"source":"acme-dev","docs":["x.md"]}',
      },
      { path: 'a.ts', body: '' },
      { path: 'package.json', body: '{}' },
      { path: 'package-lock.json', body: '{}' },
    ]);
    expect((await inspectArchive(archive)).manifest).toEqual({
      integrations: [{ slug: 'a', entry: 'a.ts', raw: { slug: 'a', entry: 'a.ts' } }],
      source: 'acme-dev',
    });
  });

  it('refuses what is not a gzipped tar', async () => {
    expect(await refusal(Buffer.from('PK\u0003\u0004 a zip file'))).toMatchObject({ reason: 'not_gzip' });
    const notTar = await refusal(
      gzipSync(Buffer.from('just some text, not a tar archive at all '.repeat(30))),
    );
    expect(notTar.reason).toBe('not_tar');
    expect(notTar.message).toMatch(/not a readable tar\.gz archive/);
    const truncated = await refusal(minimalArchive().subarray(0, 60));
    expect(truncated.reason).toBe('not_gzip');
    expect(truncated.message).toBe('the upload is not a readable gzip file (unexpected end of file)');
  });

  it.each([
    ['.env', '.env'],
    ['.env.local', '.env.local'],
    ['src/acme-notes/.env.production', 'src/acme-notes/.env.production'],
    ['./.platform/local-secrets.json', '.platform/local-secrets.json'],
    ['packages/a/.platform/local-secrets.json', 'packages/a/.platform/local-secrets.json'],
  ])('refuses local secrets: %s', async (path, file) => {
    const error = await refusal(minimalArchive([{ path, body: 'SECRET=1' }]));
    expect(error).toMatchObject({ reason: 'local_secrets', file, code: 'invalid_archive' });
    expect(error.message).toBe(
      `the tarball carries ${file}: local secrets never leave your machine; remove it (platform publish leaves it out)`,
    );
    expect(error.hint).toMatch(/^Remove /);
  });

  it('refuses paths that are absolute or leave the project folder', async () => {
    expect(await refusal(minimalArchive([{ path: '../x', body: 'x' }]))).toMatchObject({
      reason: 'escapes_root',
      file: '../x',
      message: 'the tarball carries ../x, a path that leaves the project folder',
    });
    expect((await refusal(minimalArchive([{ path: 'src/../../etc/cron.d/x', body: 'x' }]))).reason).toBe(
      'escapes_root',
    );
    expect((await refusal(minimalArchive([{ path: 'src\\..\\..\\x', body: 'x' }]))).reason).toBe(
      'escapes_root',
    );
    expect(await refusal(minimalArchive([{ path: '/etc/passwd', body: 'x' }]))).toMatchObject({
      reason: 'absolute_path',
      file: '/etc/passwd',
    });
  });

  it.each<[RawEntry, string]>([
    [{ path: 'src/link.ts', type: 'SymbolicLink', linkpath: '/etc/passwd' }, 'a symbolic link'],
    [{ path: 'src/hard.ts', type: 'Link', linkpath: 'package.json' }, 'a hard link'],
    [{ path: 'dev/tty', type: 'CharacterDevice' }, 'a device file'],
    [{ path: 'pipe', type: 'FIFO' }, 'a named pipe'],
  ])('refuses links and devices: %o', async (entry, what) => {
    const error = await refusal(minimalArchive([entry]));
    expect(error).toMatchObject({ reason: 'link', file: entry.path });
    expect(error.message).toBe(
      `the tarball carries ${entry.path}, ${what}: only regular files and folders are accepted`,
    );
  });

  it('refuses a missing or invalid platform.json, a missing package.json or package-lock.json', async () => {
    expect(await refusal(minimalArchive([], ['platform.json']))).toMatchObject({
      reason: 'no_manifest',
      file: 'platform.json',
      message: 'the archive has no platform.json at its root',
    });
    const manifest = (body: string) => refusal(withManifest(body));
    expect(await manifest('{ nope')).toMatchObject({ reason: 'invalid_manifest', file: 'platform.json' });
    expect((await manifest('{ nope')).message).toMatch(/^platform\.json is not valid JSON/);
    expect((await manifest('{"integrations":[]}')).message).toBe('platform.json lists no integrations');
    expect((await manifest('{"integrations":[{"slug":"a"}]}')).message).toBe(
      'platform.json integrations[0] needs a "slug" and an "entry", both strings',
    );
    expect((await manifest('{"integrations":[{"slug":"a","entry":"src/missing.ts"}]}')).message).toBe(
      'platform.json names src/missing.ts as the entry of "a", but the archive has no such file',
    );
    expect(
      (await manifest('{"integrations":[{"slug":"a","entry":"src/a.ts"},{"slug":"a","entry":"src/a.ts"}]}'))
        .message,
    ).toBe('platform.json lists the slug "a" twice');
    expect(await refusal(minimalArchive([], ['package-lock.json']))).toMatchObject({
      reason: 'no_lockfile',
      file: 'package-lock.json',
      message:
        'the archive has no package-lock.json at its root: the gate installs exactly what the lockfile pins',
    });
    expect(await refusal(minimalArchive([], ['package.json']))).toMatchObject({ reason: 'no_package_json' });
  });

  it('refuses archives over the limits', async () => {
    const archive = minimalArchive([{ path: 'big.txt', body: 'x'.repeat(4000) }]);
    expect(await refusal(archive, { maxBytes: 100 })).toMatchObject({ reason: 'too_large' });
    expect(await refusal(archive, { maxUnpackedBytes: 2000 })).toMatchObject({ reason: 'too_large' });
    expect(await refusal(archive, { maxFiles: 3 })).toMatchObject({ reason: 'too_many_files' });
    await expect(inspectArchive(archive, { maxFiles: 6, maxUnpackedBytes: 10_000 })).resolves.toBeDefined();
    // A small upload that inflates far beyond the limit is stopped while inflating.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(await refusal(bomb, { maxUnpackedBytes: 1024 * 1024, maxFiles: 10 })).toMatchObject({
      reason: 'too_large',
      message: 'the archive unpacks to more than 1.0 MiB',
    });
  });
});

describe('inspectArchive off the event loop', () => {
  it('lets other work run while an archive that inflates to 48 MiB is inspected', async () => {
    const archive = minimalArchive([{ path: 'big.bin', body: 'x'.repeat(48 * 1024 * 1024) }]);
    expect(archive.length).toBeLessThan(256 * 1024);
    let turns = 0;
    let inspecting = true;
    const tick = () => {
      turns += 1;
      if (inspecting) setImmediate(tick);
    };
    setImmediate(tick);
    const contents = await inspectArchive(archive);
    inspecting = false;
    expect(contents.files).toContain('big.bin');
    // Inflated and parsed chunk by chunk: the loop turned between chunks (a synchronous
    // inspection would let it turn at most once).
    expect(turns).toBeGreaterThan(10);
  });
});

describe('unpacking', () => {
  it('writes the files of an accepted archive, and refuses a bad entry under the same rule', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'platform-gate-unpack-'));
    try {
      await unpackArchive(minimalArchive(), join(dir, 'ok'));
      expect((await readdir(join(dir, 'ok'))).sort()).toEqual([
        'package-lock.json',
        'package.json',
        'platform.json',
        'src',
      ]);
      const hostile = rawTarGz([
        { path: 'ok.txt', body: 'fine' },
        { path: '../escaped.txt', body: 'x' },
      ]);
      await expect(unpackArchive(hostile, join(dir, 'bad'))).rejects.toMatchObject({
        reason: 'escapes_root',
      });
      expect(await readdir(dir)).not.toContain('escaped.txt');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

function withManifest(body: string): Buffer {
  return rawTarGz([
    { path: 'platform.json', body },
    { path: 'src/a.ts', body: '' },
    { path: 'package.json', body: '{}' },
    { path: 'package-lock.json', body: '{}' },
  ]);
}
