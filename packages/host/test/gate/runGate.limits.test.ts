// The tests check's limits: the time limit (through runGate), and on the project that run installed,
// a project without tests and the preload that keeps tests off the network where unshare is missing.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckLog } from '../../src/gate/_checkLog.js';
import { runProjectTests } from '../../src/gate/_runTests.js';
import { networkSandbox, preloadSandbox } from '../../src/gate/_sandbox.js';
import type { GateResult } from '../../src/gate/index.js';
import { type GateRegistry, makeProject, startGateRegistry } from './_gateProject.js';
import { connectionCounter, describeWith, gateProject, logOf, statuses } from './_gateRun.js';

let root: string;
let registry: GateRegistry;
let result: GateResult;
let installed: string;
const cleanup: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'platform-gate-limits-'));
  registry = await startGateRegistry(join(root, 'registry'));
  const project = await makeProject(registry.url, {
    // JavaScript, so the project's tsconfig (no Node types) leaves it alone.
    'src/gate-notes/slow.test.js': [
      "import { spawn } from 'node:child_process';",
      "import { writeFileSync } from 'node:fs';",
      "import { it } from 'vitest';",
      '',
      "it('never finishes', async () => {",
      '  // Something that outlives its parent unless the whole process group is killed.',
      "  const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });",
      "  writeFileSync('sleeper.pid', String(sleeper.pid));",
      '  await new Promise(() => {});',
      '}, 600_000);',
      '',
    ].join('\n'),
  });
  cleanup.push(project.dir);
  const gated = await gateProject(project.dir, {
    registry: registry.url,
    describe: describeWith(join(root, 'bundles')),
    limits: { testsMs: 8000 },
  });
  cleanup.push(gated.workDir);
  result = gated.result;
  installed = join(gated.workDir, 'project');
}, 300_000);

afterAll(async () => {
  await registry?.close();
  for (const dir of [root, ...cleanup])
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** A project folder sharing the installed node_modules, with only `files` as its sources. */
async function projectWith(files: Record<string, string>): Promise<{ projectDir: string; workDir: string }> {
  const workDir = await mkdtemp(join(tmpdir(), 'platform-gate-tests-'));
  cleanup.push(workDir);
  const projectDir = join(workDir, 'project');
  await mkdir(join(projectDir, 'src'), { recursive: true });
  await symlink(join(installed, 'node_modules'), join(projectDir, 'node_modules'));
  await writeFile(join(projectDir, 'package.json'), await readFile(join(installed, 'package.json')));
  for (const [path, content] of Object.entries(files)) await writeFile(join(projectDir, path), content);
  return { projectDir, workDir };
}

// Whether the sleeper still runs: a killed one may linger as a zombie until init reaps it. (In the
// gate's own pid namespace its pid is another number here: the command line tells them apart.)
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('sleep\u0000600')) return false;
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

describe('the time limit of checks/tests', () => {
  it('fails the check with a message naming the limit, the other checks unaffected', () => {
    expect(result.verdict).toBe('rejected');
    expect(statuses(result)).toMatchObject({
      'checks/typecheck': 'passed',
      'checks/typecheck-host-rules': 'passed',
      'checks/tests': 'failed',
      bundle: 'skipped',
    });
    expect(result.findings).toEqual([
      {
        check: 'checks/tests',
        severity: 'error',
        code: 'tests.timeout',
        message:
          "the tests did not finish within 8 s, the gate's limit for checks/tests; the run was stopped",
        hint: 'Make the whole test run finish within 8 s: look for a test waiting on a timer, the network or a promise that never settles.',
      },
    ]);
    expect(logOf(result, 'checks/tests')).toContain("stopped: the tests ran past the gate's limit of 8 s");
  });

  it('kills the whole process group: a process the test started is gone', async () => {
    const pidFile = join(installed, 'sleeper.pid');
    expect(existsSync(pidFile)).toBe(true);
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(running(pid)).toBe(false);
  });
});

describe('checks/tests on its own', () => {
  it('passes a project without tests, with a checks/no-tests warning', async () => {
    const { projectDir, workDir } = await projectWith({ 'src/index.ts': 'export const x = 1;\n' });
    const log = new CheckLog(64 * 1024);
    const outcome = await runProjectTests({
      projectDir,
      workDir,
      timeoutMs: 60_000,
      log,
      reportBytes: 1024 * 1024,
      sandbox: await networkSandbox(workDir),
    });
    expect(outcome, log.text()).toEqual({
      passed: true,
      findings: [
        {
          check: 'checks/tests',
          severity: 'warning',
          code: 'checks/no-tests',
          message: 'the project has no tests',
          hint: 'Add tests next to the code (`src/<slug>/integration.test.ts`); the gate runs them with `vitest run`.',
        },
      ],
    });
  }, 60_000);

  it('keeps tests off the network with the preload where unshare is not available', async () => {
    const listener = await connectionCounter();
    try {
      const { projectDir, workDir } = await projectWith({
        'src/network.test.ts': [
          "import { get } from 'node:http';",
          "import { expect, it } from 'vitest';",
          '',
          "it('fetches from the host', async () => {",
          `  expect((await fetch('http://127.0.0.1:${listener.port}/')).status).toBe(200);`,
          '});',
          '',
          "it('connects with node:http', async () => {",
          '  const status = await new Promise((resolve, reject) =>',
          `    get('http://127.0.0.1:${listener.port}/', (response) => resolve(response.statusCode)).on('error', reject),`,
          '  );',
          '  expect(status).toBe(200);',
          '});',
          '',
        ].join('\n'),
      });
      const log = new CheckLog(64 * 1024);
      const outcome = await runProjectTests({
        projectDir,
        workDir,
        timeoutMs: 60_000,
        log,
        reportBytes: 1024 * 1024,
        sandbox: await preloadSandbox(workDir, 'unshare is not used in this test'),
      });
      expect(outcome.passed, log.text()).toBe(false);
      expect(outcome.findings.map((item) => item.message)).toEqual([
        expect.stringMatching(
          /^fetches from the host: Error: network access is off in the Platform gate \(fetch\)/,
        ),
        expect.stringMatching(/^connects with node:http: Error: network access is off in the Platform gate/),
      ]);
      expect(log.text()).toContain(
        'network: blocked in each Node process by a preload (net, tls, dns, http, https, dgram, fetch); unshare is not used in this test',
      );
      expect(listener.count()).toBe(0);
    } finally {
      await listener.close();
    }
  }, 60_000);
});
