// Partner code in the gate (tsc, the tests) runs as `nobody` when the host runs as root: it can
// write its work folder and nothing of the host's, and cannot read a file only the host's user can.
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv } from '../../src/gate/_childEnv.js';
import { runChild } from '../../src/gate/_runChild.js';
import { networkSandbox, UNPRIVILEGED } from '../../src/gate/_sandbox.js';

const isRoot = process.getuid?.() === 0;
if (!isRoot) {
  process.stderr.write(
    '[gate] sandboxUser.test.ts skipped: the tests do not run as root, so the gate cannot switch users (its check log says so)\n',
  );
}

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

describe.skipIf(!isRoot)('the gate runs partner code as nobody', () => {
  it('hands the work folder over, and a host-only file stays unreadable', async () => {
    const hostDir = await mkdtemp(join(tmpdir(), 'platform-host-only-'));
    const workDir = await mkdtemp(join(tmpdir(), 'platform-gate-user-'));
    made.push(hostDir, workDir);
    const secret = join(hostDir, 'secret.key');
    await writeFile(secret, 'host secret', { mode: 0o600 });
    const sandbox = await networkSandbox(workDir);
    expect(sandbox.note).toContain(`user: ${UNPRIVILEGED.name}`);
    // The project, home and tmp are handed over; the work folder and the host's files stay root's.
    expect((await stat(join(workDir, 'tmp'))).uid).toBe(UNPRIVILEGED.uid);
    expect((await stat(workDir)).uid).toBe(0);
    expect((await stat(sandbox.hostDir)).uid).toBe(0);

    const script = [
      "const fs = require('node:fs');",
      `fs.writeFileSync(${JSON.stringify(join(workDir, 'tmp', 'wrote.txt'))}, String(process.getuid()));`,
      `try { fs.readFileSync(${JSON.stringify(secret)}, 'utf8'); console.log('READ'); } catch (error) { console.log(error.code); }`,
    ].join('\n');
    const chunks: Buffer[] = [];
    const wrapped = sandbox.wrap(process.execPath, ['-e', script], await childEnv(workDir));
    const outcome = await runChild({
      ...wrapped,
      cwd: workDir,
      timeoutMs: 60_000,
      log: { write: (chunk) => chunks.push(chunk) },
    });
    const output = Buffer.concat(chunks).toString('utf8');
    expect(outcome.code, output).toBe(0);
    expect(output.trim()).toBe('EACCES');
    // The file it wrote belongs to nobody (in the namespace it may call itself root).
    expect((await stat(join(workDir, 'tmp', 'wrote.txt'))).uid).toBe(UNPRIVILEGED.uid);
    expect(await readFile(secret, 'utf8')).toBe('host secret');
  }, 60_000);

  it('refuses a work folder nobody cannot reach, naming the folder in the way and the fix', async () => {
    const closed = await mkdtemp(join(tmpdir(), 'platform-gate-closed-'));
    made.push(closed);
    const workDir = join(closed, 'work');
    await mkdir(workDir);
    await expect(networkSandbox(workDir)).rejects.toThrow(`${closed} is mode 700`);
    await expect(networkSandbox(workDir)).rejects.toThrow('gate.scratchDir');
  });
});
