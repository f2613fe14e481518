import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childEnv, REPO_ROOT, tempDir } from './_cli.js';

// `npm start` as a developer runs it: npm -> sh -c -> node. A SIGTERM or SIGINT sent to the npm
// process alone (a process manager, an IDE's stop button, `kill <pid>`) must stop the whole tree,
// the server through its graceful shutdown. Linux only: the tree is read from /proc.

const BANNER_TIMEOUT_MS = 240_000; // the first start from source, on a loaded machine
const EXIT_TIMEOUT_MS = 30_000;

/** The live (not zombie) processes of process group `pgid`, from /proc. */
function groupMembers(pgid: number): string[] {
  const members: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after the last ')'.
    const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) !== pgid || state === 'Z') continue;
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {}
    members.push(`${entry} (parent ${ppid}): ${cmdline}`);
  }
  return members;
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return check();
}

const answers = (url: string) =>
  fetch(`${url}/api/platform/me`, { signal: AbortSignal.timeout(5_000) }).then(
    (response) => response.status,
    () => undefined,
  );

interface Started {
  readonly npm: ChildProcess;
  readonly pgid: number;
  readonly url: string;
  output(): string;
}

const groups: number[] = [];
const dirs: { cleanup(): Promise<void> }[] = [];

afterEach(async () => {
  // Whatever happened, nothing this file started outlives it.
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {}
  }
  for (const dir of dirs.splice(0)) await dir.cleanup();
});

async function npmStart(): Promise<Started> {
  const dir = await tempDir('npm-start');
  dirs.push(dir);
  // Its own process group (detached), so the test can see and clean up the whole tree.
  const npm = spawn(
    'npm',
    ['start', '--', '--port', '0', '--data', join(dir.path, 'data'), '--no-examples'],
    {
      cwd: REPO_ROOT,
      // One runner process is enough to serve a banner and a 401.
      env: childEnv({ PLATFORM_RUNNERS: '1' }),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const pgid = npm.pid!;
  groups.push(pgid);
  let output = '';
  npm.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  let exited = false;
  npm.on('exit', () => {
    exited = true;
  });
  const listening = () => /Platform host listening on (http:\/\/\S+)/.exec(output)?.[1];
  await until(() => exited || listening() !== undefined, BANNER_TIMEOUT_MS);
  const url = listening();
  if (url === undefined) throw new Error(`npm start printed no banner:\n${output}`);
  return { npm, pgid, url, output: () => output };
}

interface Case {
  readonly name: string;
  readonly send: (started: Started) => void;
  /** What the server's shutdown line names as its cause. */
  readonly cause: string;
}

const CASES: readonly Case[] = [
  { name: 'SIGTERM to the npm process alone', send: (s) => s.npm.kill('SIGTERM'), cause: 'SIGTERM' },
  { name: 'SIGINT to the npm process alone', send: (s) => s.npm.kill('SIGINT'), cause: 'SIGINT' },
  // What a terminal does: every process of the group gets it, and npm passes its copy on as well.
  {
    name: 'Ctrl-C (SIGINT to the whole group)',
    send: (s) => process.kill(-s.pgid, 'SIGINT'),
    cause: 'SIGINT',
  },
  // npm gone without passing anything on: the server notices its parent is gone.
  { name: 'SIGKILL to the npm process alone', send: (s) => s.npm.kill('SIGKILL'), cause: 'parent exited' },
];

describe.skipIf(process.platform !== 'linux')('npm start', { timeout: BANNER_TIMEOUT_MS + 60_000 }, () => {
  it.each(CASES)(
    '$name: the server shuts down gracefully and every process of the tree exits',
    async ({ send, cause }) => {
      const started = await npmStart();
      expect(await answers(started.url)).toBe(401);
      expect(groupMembers(started.pgid).length).toBeGreaterThanOrEqual(2);

      send(started);

      const ended = await until(() => groupMembers(started.pgid).length === 0, EXIT_TIMEOUT_MS);
      expect(ended, `still running:\n${groupMembers(started.pgid).join('\n')}\n${started.output()}`).toBe(
        true,
      );
      expect(await answers(started.url)).toBeUndefined();
      // The server's own shutdown ran, once (it was not killed, and a copy of the signal was no second one).
      const output = started.output();
      expect(output).toContain(`"signal":"${cause}","msg":"shutting down: finishing in-flight requests"`);
      expect(output).toContain('"msg":"stopped"');
      expect(output).not.toContain('second signal');
    },
  );
});
