// The sandbox's private /tmp must not hide what the run needs: a host installed under /tmp (a
// fresh clone there) still shows its toolchain, read-only, and the work folder, read-write, while
// every other file of the host's /tmp stays out of sight.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedCommand, isolationUnavailable } from '../../src/gate/_isolate.js';

const why = await isolationUnavailable();
if (why !== undefined) process.stderr.write(`[gate] isolatedCommand.test.ts skipped: ${why}\n`);

let root: string;

beforeAll(async () => {
  root = await mkdtemp('/tmp/platform-isolated-');
  await mkdir(join(root, "tool's modules"), { recursive: true });
  await writeFile(join(root, "tool's modules", 'tool.txt'), 'tool\n');
  await mkdir(join(root, 'work'), { recursive: true });
  await writeFile(join(root, 'hidden.txt'), 'host only');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(why !== undefined)('isolatedCommand', () => {
  it('keeps the listed paths under /tmp at their places and hides the rest', () => {
    const modules = join(root, "tool's modules");
    const work = join(root, 'work');
    const script = [
      `cat ${JSON.stringify(join(modules, 'tool.txt'))}`,
      `(echo x > ${JSON.stringify(join(modules, 'planted.txt'))}) 2>/dev/null && echo tool-writable || echo tool-read-only`,
      `echo written > ${JSON.stringify(join(work, 'out.txt'))} && echo work-writable`,
      `[ -e ${JSON.stringify(join(root, 'hidden.txt'))} ] && echo hidden-visible || echo hidden-gone`,
      'id -u',
    ].join('\n');
    const { command, args } = isolatedCommand({
      procsFiles: [],
      kept: [
        { path: modules, readOnly: true },
        { path: work, readOnly: false },
      ],
      uid: 0,
      gid: 0,
      cwd: work,
      tmpBytes: 1 << 20,
      command: 'sh',
      args: ['-c', script],
    });
    const run = spawnSync(command, args, { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual([
      'tool',
      'tool-read-only',
      'work-writable',
      'hidden-gone',
      '0',
    ]);
    expect(spawnSync('cat', [join(work, 'out.txt')], { encoding: 'utf8' }).stdout).toBe('written\n');
  });
});
