// Each gate run in its own sandbox (root with unshare, setpriv and cgroups, as on the CI machine):
// a process a test leaves behind (setsid, double fork) dies with the run, no host socket is
// reachable, /tmp and /dev/shm are the run's own, a memory hog and a fork bomb are bounded by the
// cgroup with findings naming the limit, and the whole gate has a deadline.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cgroupUnavailable } from '../../src/gate/_cgroup.js';
import { isolationUnavailable } from '../../src/gate/_isolate.js';
import { type GateResult, missingGateProtections } from '../../src/gate/index.js';
import { type GateRegistry, makeProject, startGateRegistry } from './_gateProject.js';
import { describeWith, gateProject, logOf } from './_gateRun.js';

const why = (await isolationUnavailable()) ?? cgroupUnavailable();
if (why !== undefined) process.stderr.write(`[gate] runGate.sandbox.test.ts skipped: ${why}\n`);
const PG_SOCKET = '/var/run/postgresql/.s.PGSQL.5432';
const token = `platform-gate-escape-${process.pid}`;

let root: string;
let registry: GateRegistry;
let result: GateResult;
let workDir: string;
let deadlineResult: GateResult;
let ended: number;
const cleanup: string[] = [];

const partnerTest = [
  "import { spawn, spawnSync } from 'node:child_process';",
  "import { writeFileSync } from 'node:fs';",
  "import { connect } from 'node:net';",
  "import { it } from 'vitest';",
  '',
  'const seen = {};',
  "const save = () => writeFileSync('observed.json', JSON.stringify(seen));",
  '',
  "it('leaves a process behind that outlives its session', () => {",
  // Double fork and a session of its own: writes a heartbeat, and a marker once the gate has ended.
  "  spawn('sh', ['-c', 'setsid sh -c \"while :; do date +%s%N > heartbeat; [ -e gate-ended ] && echo late > leftover-marker; sleep 0.3; done\" &'], { stdio: 'ignore', detached: true }).unref();",
  '});',
  '',
  "it('tries the host database socket', async () => {",
  `  seen.socket = await new Promise((resolve) => { const s = connect(${JSON.stringify(PG_SOCKET)}); s.on('connect', () => { s.destroy(); resolve('connected'); }); s.on('error', (e) => resolve(e.code)); });`,
  '  save();',
  '});',
  '',
  "it('writes the shared temp folders', () => {",
  `  for (const dir of ['/tmp', '/dev/shm']) { try { writeFileSync(dir + '/${token}', 'x'); seen[dir] = 'wrote'; } catch (e) { seen[dir] = e.code; } }`,
  '  save();',
  '});',
  '',
  "it('hogs memory', () => {",
  "  const hog = spawnSync(process.execPath, ['-e', 'const a = []; for (;;) a.push(Buffer.alloc(16 * 1024 * 1024, 1));'], { stdio: 'ignore' });",
  '  seen.hog = hog.signal ?? hog.status;',
  '  save();',
  '}, 60_000);',
  '',
  "it('forks without end', () => {",
  "  const bomb = spawnSync('sh', ['-c', 'i=0; while [ $i -lt 3000 ]; do sleep 30 & i=$((i+1)); done 2>/dev/null; kill -9 0'], { stdio: 'ignore', detached: true });",
  '  seen.bomb = bomb.signal ?? bomb.status;',
  '  save();',
  '}, 60_000);',
  '',
].join('\n');

beforeAll(async () => {
  if (why !== undefined) return;
  root = await mkdtemp(join(tmpdir(), 'platform-gate-sandbox-'));
  registry = await startGateRegistry(join(root, 'registry'));
  const project = await makeProject(registry.url, { 'src/gate-notes/escape.test.js': partnerTest });
  cleanup.push(project.dir);
  const gated = await gateProject(project.dir, {
    registry: registry.url,
    describe: describeWith(join(root, 'b')),
    limits: { memoryBytes: 768 * 1024 * 1024, processes: 160, testsMs: 120_000 },
  });
  ended = Date.now();
  result = gated.result;
  workDir = gated.workDir;
  cleanup.push(workDir);
  const sleepy = await makeProject(registry.url, {
    'src/gate-notes/slow.test.js':
      "import { it } from 'vitest';\nit('sleeps', () => new Promise(() => {}), 600_000);\n",
  });
  cleanup.push(sleepy.dir);
  const late = await gateProject(sleepy.dir, {
    registry: registry.url,
    describe: describeWith(join(root, 'c')),
    limits: { gateMs: 40_000, testsMs: 300_000 },
  });
  cleanup.push(late.workDir);
  deadlineResult = late.result;
}, 400_000);

afterAll(async () => {
  await registry?.close();
  for (const dir of [root, ...cleanup])
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(why !== undefined)('the sandbox of a gate run', () => {
  it('kills every process of the run at its end, setsid or not', async () => {
    const heartbeat = join(workDir, 'project', 'heartbeat');
    expect(existsSync(heartbeat), logOf(result, 'checks/tests')).toBe(true);
    const before = await readFile(heartbeat, 'utf8');
    await writeFile(join(workDir, 'project', 'gate-ended'), '');
    await new Promise((resolve) => setTimeout(resolve, Math.max(3000, ended + 5000 - Date.now())));
    expect(await readFile(heartbeat, 'utf8')).toBe(before);
    expect(existsSync(join(workDir, 'project', 'leftover-marker'))).toBe(false);
  }, 30_000);

  it('reaches no host socket, and has /tmp and /dev/shm of its own', async () => {
    const seen = JSON.parse(await readFile(join(workDir, 'project', 'observed.json'), 'utf8'));
    if (!existsSync(PG_SOCKET))
      process.stderr.write(`[gate] no ${PG_SOCKET} on this machine: the socket check proves less\n`);
    expect(seen.socket).toBe('ENOENT');
    expect(seen['/tmp']).toBe('wrote');
    expect(existsSync(`/tmp/${token}`)).toBe(false);
    expect(existsSync(`/dev/shm/${token}`)).toBe(false);
    expect(logOf(result, 'checks/tests')).toContain('private /tmp, /dev/shm and /run');
  });

  it('bounds a memory hog and a fork bomb, with findings naming each limit', async () => {
    const seen = JSON.parse(await readFile(join(workDir, 'project', 'observed.json'), 'utf8'));
    expect(seen.hog).toBe('SIGKILL');
    expect(result.verdict).toBe('rejected');
    const codes = result.findings.filter((item) => item.check === 'checks/tests').map((item) => item.code);
    expect(codes).toContain('gate.limit.memory');
    expect(codes).toContain('gate.limit.processes');
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        message: "checks/tests hit the gate's memory limit of 768 MiB; a process was killed",
      }),
    );
    expect(existsSync(`/sys/fs/cgroup/pids/platform-gate/${workDir.split('/').pop()}`)).toBe(false);
  });

  it('has every protection here, so serve reports none missing', async () => {
    expect(await missingGateProtections()).toEqual([]);
  });

  it('rejects a run past the overall deadline, saying so', () => {
    expect(deadlineResult.verdict).toBe('rejected');
    expect(deadlineResult.findings).toContainEqual(
      expect.objectContaining({
        code: 'gate.deadline',
        message: expect.stringContaining(
          'the gate did not finish within 40 s, its deadline for all checks together',
        ),
      }),
    );
  });
});
