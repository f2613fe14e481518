// The gate against a project that brings its own toolchain: a fake `typescript` whose tsc passes
// everything and a fake `vitest` that writes a passing report, plus tests that plant links where
// the host used to write and a fake report where the host used to read it. The host's own tsc and
// vitest run, and nothing outside the project changes.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostToolchain } from '../../src/gate/_toolchain.js';
import type { GateResult } from '../../src/gate/index.js';
import { CLEAN_FIXTURE, type GateRegistry, makeProject, startGateRegistry } from './_gateProject.js';
import { describeWith, gateProject, logOf, statuses } from './_gateRun.js';

let root: string;
let registry: GateRegistry;
let result: GateResult;
let workDir: string;
let victim: string;
const cleanup: string[] = [];

const fakeTool = (name: string, bin: string, body: string) => ({
  [`vendor/fake-${name}/package.json`]: JSON.stringify({
    name,
    version: '0.0.0-fake',
    bin: { [bin]: 'bin.js' },
  }),
  [`vendor/fake-${name}/bin.js`]: `#!/usr/bin/env node\n${body}\n`,
});

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'platform-gate-hostile-'));
  // A file only root may change, outside every folder the gate hands to partner code.
  victim = join(root, 'victim.txt');
  await writeFile(victim, 'untouched\n', { mode: 0o644 });
  registry = await startGateRegistry(join(root, 'registry'));
  const pkg = JSON.parse(await readFile(join(CLEAN_FIXTURE, 'package.json'), 'utf8'));
  pkg.devDependencies = { typescript: 'file:vendor/fake-typescript', vitest: 'file:vendor/fake-vitest' };
  const fakeReport = JSON.stringify({ numTotalTests: 1, numFailedTests: 0, success: true, testResults: [] });
  const project = await makeProject(registry.url, {
    'package.json': JSON.stringify(pkg, null, 2),
    ...fakeTool(
      'typescript',
      'tsc',
      "require('node:fs').writeFileSync('fake-tsc-ran', ''); process.exit(0);",
    ),
    ...fakeTool(
      'vitest',
      'vitest',
      `require('node:fs').writeFileSync('fake-vitest-ran', ''); process.stdout.write(${JSON.stringify(fakeReport)}); process.exit(0);`,
    ),
    'src/gate-notes/type-error.ts': "export const count: number = 'three';\n",
    'src/gate-notes/plant.test.js': [
      "import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';",
      "import { join } from 'node:path';",
      "import { it } from 'vitest';",
      '',
      "it('plants links where the host wrote, and a passing report where it read', () => {",
      `  const victim = ${JSON.stringify(victim)};`,
      "  const work = join(process.cwd(), '..');",
      '  const attempts = {};',
      '  const tryTo = (what, fn) => { try { fn(); attempts[what] = "done"; } catch (error) { attempts[what] = error.code; } };',
      "  tryTo('host-rules-link', () => symlinkSync(victim, 'tsconfig.platform-host-rules.json'));",
      "  tryTo('gate-dir', () => mkdirSync(join(work, 'gate'), { recursive: true }));",
      "  tryTo('report-link', () => symlinkSync(victim, join(work, 'gate', 'vitest-report.json')));",
      `  tryTo('host-file', () => writeFileSync(join(work, 'host', 'report-to-fd.mjs'), 'export default class {}'));`,
      "  tryTo('host-dir', () => writeFileSync(join(work, 'host', 'planted.mjs'), ''));",
      `  tryTo('fake-report', () => writeFileSync(join(work, 'tmp', 'vitest-report.json'), ${JSON.stringify(fakeReport)}));`,
      "  writeFileSync(join(work, 'tmp', 'attempts.json'), JSON.stringify(attempts));",
      '});',
      '',
      "it('fails', () => { throw new Error('this test fails'); });",
      '',
    ].join('\n'),
  });
  cleanup.push(project.dir);
  const gated = await gateProject(project.dir, {
    registry: registry.url,
    describe: describeWith(join(root, 'b')),
  });
  result = gated.result;
  workDir = gated.workDir;
  cleanup.push(workDir);
}, 300_000);

afterAll(async () => {
  await registry?.close();
  for (const dir of [root, ...cleanup])
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("a project's own typescript and vitest", () => {
  it("never run: the host's tsc finds the type error and the host's vitest the failing test", async () => {
    const tools = await hostToolchain();
    const project = join(workDir, 'project');
    expect(existsSync(join(project, 'fake-tsc-ran'))).toBe(false);
    expect(existsSync(join(project, 'fake-vitest-ran'))).toBe(false);
    expect(result.verdict).toBe('rejected');
    expect(statuses(result)).toMatchObject({
      install: 'passed',
      'checks/typecheck': 'failed',
      'checks/tests': 'failed',
    });
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        check: 'checks/typecheck',
        code: 'TS2322',
        file: 'src/gate-notes/type-error.ts',
      }),
    );
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        check: 'checks/tests',
        code: 'tests.failed',
        message: expect.stringMatching(/^fails: Error: this test fails/),
      }),
    );
    expect(logOf(result, 'install')).toContain(
      `typescript: the project's 0.0.0-fake is replaced by the host's ${tools.typescript.version}`,
    );
    expect(logOf(result, 'checks/typecheck')).toContain(`typescript: the host's ${tools.typescript.version}`);
    expect(logOf(result, 'checks/tests')).toContain(`vitest: the host's ${tools.vitest.version}`);
  });

  it('cannot reach the host files, and the links it planted change nothing outside the project', async () => {
    const attempts = JSON.parse(await readFile(join(workDir, 'tmp', 'attempts.json'), 'utf8'));
    expect(attempts).toMatchObject({ 'host-file': 'EACCES', 'host-dir': 'EACCES', 'gate-dir': 'EACCES' });
    expect(await readFile(victim, 'utf8')).toBe('untouched\n');
    expect(existsSync(join(workDir, 'host', 'planted.mjs'))).toBe(false);
  });
});

// The tests above need the host to drop partner code to another user; say so where it cannot.
if (process.getuid?.() !== 0) {
  process.stderr.write(
    '[gate] runGate.hostile.test.ts: not root, so partner code runs as the host user and may write the host files\n',
  );
}
