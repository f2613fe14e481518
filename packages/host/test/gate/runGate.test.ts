// The gate end to end on partner projects: a real npm install from the host's registry routes (on
// 127.0.0.1), the project's own tsc and vitest, bundles loaded by a runtime's describe.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unshareUnavailable } from '../../src/gate/_sandbox.js';
import { GATE_CHECKS, type GateResult } from '../../src/gate/index.js';
import { CLEAN_FIXTURE, type GateRegistry, makeProject, npmEnv, startGateRegistry } from './_gateProject.js';
import { connectionCounter, describeWith, gateProject, logOf, statuses } from './_gateRun.js';

const run = promisify(execFile);

let root: string;
let registry: GateRegistry;
let lockfile: string;
let describeBundle: ReturnType<typeof describeWith>;
const cleanup: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'platform-gate-'));
  registry = await startGateRegistry(join(root, 'registry'));
  describeBundle = describeWith(join(root, 'bundles'));
  const project = await makeProject(registry.url);
  cleanup.push(project.dir);
  lockfile = project.lockfile;
}, 120_000);

afterAll(async () => {
  await registry?.close();
  for (const dir of [root, ...cleanup])
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

const lineOf = (text: string, marker: string) =>
  text.split('\n').findIndex((line) => line.includes(marker)) + 1;

describe('a clean project', () => {
  let result: GateResult;
  let reported: Awaited<ReturnType<typeof gateProject>>['reported'];
  let projectDir: string;
  const secrets = { DATABASE_URL: 'postgres://host-secret@db/platform', PLATFORM_SECRET_KEY: 'host-secret' };

  beforeAll(async () => {
    // Locked against another host: the gate installs @platform/* from its own registry all the same.
    const elsewhere = lockfile.replaceAll(registry.url, 'https://elsewhere.example/registry/');
    expect(elsewhere).not.toBe(lockfile);
    const project = await makeProject(registry.url, {}, elsewhere);
    cleanup.push(project.dir);
    const saved = { ...process.env };
    Object.assign(process.env, secrets);
    try {
      const gated = await gateProject(project.dir, { registry: registry.url, describe: describeBundle });
      cleanup.push(gated.workDir);
      ({ result, reported } = gated);
      projectDir = join(gated.workDir, 'project');
    } finally {
      for (const name of Object.keys(secrets)) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  }, 300_000);

  it('passes every check, in order, telling onCheck as each starts and ends', () => {
    expect(result.verdict, JSON.stringify(result.findings, null, 2)).toBe('passed');
    expect(result.checks.map((check) => [check.name, check.status])).toEqual(
      GATE_CHECKS.map((name) => [name, 'passed']),
    );
    expect(result.findings).toEqual([]);
    expect(reported.map((check) => `${check.name}:${check.status}`)).toEqual(
      GATE_CHECKS.flatMap((name) => [`${name}:running`, `${name}:passed`]),
    );
    for (const check of result.checks) expect(check.ms).toBeGreaterThanOrEqual(0);
  });

  it("returns each integration's manifest and the bundle the runtime will run", () => {
    expect(result.integrations.map((integration) => integration.slug)).toEqual(['gate-notes']);
    const [integration] = result.integrations;
    expect(integration!.manifest).toMatchObject({ slug: 'gate-notes', egress: ['https://api.notes.test'] });
    expect(integration!.bundle).toContain('__platformRunGuestCall');
    expect(logOf(result, 'bundle')).toMatch(/gate-notes: \d+ KiB, sha256 [0-9a-f]{64}/);
  });

  it("records each integration's platform.json listing, the docs' Markdown in place of the path", () => {
    expect(result.integrations[0]!.listing).toEqual({
      name: 'Gate Notes',
      description: 'Lists the notes of the account.',
      icon: 'note-sticky',
      docs: '# Gate Notes\n\nLists the notes kept in account storage.\n',
    });
  });

  it("installs @platform/* from the host's registry, whatever host the lockfile names", async () => {
    const npmrc = await readFile(join(projectDir, '.npmrc'), 'utf8');
    expect(npmrc).toContain(`@platform:registry=${registry.url}\n`);
    expect(npmrc).toContain('ignore-scripts=true\n');
    const lock = JSON.parse(await readFile(join(projectDir, 'package-lock.json'), 'utf8'));
    expect(lock.packages['node_modules/@platform/sdk'].resolved).toBe(
      `${registry.url}@platform/sdk/-/sdk-0.5.0.tgz`,
    );
    expect(logOf(result, 'install')).toContain(
      `@platform/sdk@0.5.0: from ${registry.url}, integrity matches`,
    );
    expect(existsSync(join(projectDir, 'node_modules/@platform/sdk/package.json'))).toBe(true);
  });

  it('never runs install scripts', async () => {
    expect(existsSync(join(projectDir, 'node_modules/postinstall-probe/package.json'))).toBe(true);
    expect(existsSync(join(projectDir, 'postinstall-ran'))).toBe(false);
    // The probe does write its file when its script is allowed to run.
    await run('npm', ['rebuild', 'postinstall-probe', '--ignore-scripts=false'], {
      cwd: projectDir,
      env: npmEnv(),
    });
    expect(existsSync(join(projectDir, 'postinstall-ran'))).toBe(true);
  });

  it("runs the project's tests off the network and without the host's secrets", () => {
    const log = logOf(result, 'checks/tests');
    expect(log).toContain('environment.test.ts');
    expect(log).toMatch(/Tests {2}3 passed/);
    expect(log).toMatch(/^network: /m);
  });
});

describe('a project with problems in every check', () => {
  let result: GateResult;
  let listener: Awaited<ReturnType<typeof connectionCounter>>;
  const integration = [
    "import { defineIntegration } from '@platform/sdk/integration';",
    '',
    "export default defineIntegration({ slug: 'gate-notes', egress: ['https://api.notes.test'] });",
    '',
    "/** The first note's title: fine under the project's tsconfig, not under the host's rules. */",
    'export function firstTitle(notes: readonly { title: string }[]): string {',
    '  return notes[0].title; // host-rules',
    '}',
    '',
    "export const noteCount: number = 'three'; // type-error",
    '',
  ].join('\n');
  const test = [
    "import { expect, it } from 'vitest';",
    "import { firstTitle } from './integration.js';",
    '',
    "it('reads the first title', () => {",
    "  expect(firstTitle([{ title: 'a' }])).toBe('b'); // failing",
    '});',
    '',
  ].join('\n');

  beforeAll(async () => {
    listener = await connectionCounter();
    // The listener answers this process: a connection from the tests would be counted.
    expect((await fetch(`http://127.0.0.1:${listener.port}/`)).status).toBe(200);
    const project = await makeProject(
      registry.url,
      {
        'tsconfig.json': (await readFile(join(CLEAN_FIXTURE, 'tsconfig.json'), 'utf8')).replace(
          '    "noUncheckedIndexedAccess": true,\n',
          '',
        ),
        'platform.json': JSON.stringify({
          integrations: [
            { slug: 'gate-notes', entry: 'src/gate-notes/integration.ts' },
            { slug: 'mislabeled', entry: 'src/mislabeled/integration.ts' },
            { slug: 'bad-def', entry: 'src/bad-def/integration.ts' },
            { slug: 'throws-on-load', entry: 'src/throws-on-load/integration.ts' },
          ],
        }),
        'src/gate-notes/integration.ts': integration,
        'src/gate-notes/integration.test.ts': test,
        'src/gate-notes/network.test.ts': [
          "import { expect, it } from 'vitest';",
          '',
          "it('reaches the outside', async () => {",
          "  expect((await fetch('https://example.com/')).ok).toBe(true);",
          '});',
          '',
          "it('reaches the host on its loopback', async () => {",
          `  expect((await fetch('http://127.0.0.1:${listener.port}/')).status).toBe(200);`,
          '});',
          '',
        ].join('\n'),
        'src/mislabeled/integration.ts': [
          "import { defineIntegration } from '@platform/sdk/integration';",
          '',
          "export default defineIntegration({ slug: 'something-else' });",
          '',
        ].join('\n'),
        'src/bad-def/integration.ts': [
          "import { defineIntegration } from '@platform/sdk/integration';",
          '',
          'export default defineIntegration({',
          "  slug: 'bad-def',",
          "  schedules: [{ id: 'nightly', cron: '61 * * * *', handler: async () => {} }],",
          '});',
          '',
        ].join('\n'),
        'src/throws-on-load/integration.ts': [
          "import { defineIntegration } from '@platform/sdk/integration';",
          '',
          "if (Number('0') === 0) throw new Error('cannot start without ACME_KEY');",
          '',
          "export default defineIntegration({ slug: 'throws-on-load' });",
          '',
        ].join('\n'),
      },
      lockfile,
    );
    cleanup.push(project.dir);
    const gated = await gateProject(project.dir, { registry: registry.url, describe: describeBundle });
    cleanup.push(gated.workDir);
    result = gated.result;
  }, 300_000);

  afterAll(() => listener?.close());

  it('is rejected; typecheck, host rules and tests all ran; the bundle is skipped', () => {
    expect(result.verdict).toBe('rejected');
    expect(statuses(result)).toEqual({
      archive: 'passed',
      install: 'passed',
      'definition.load': 'failed',
      'definition.schema': 'failed',
      'checks/typecheck': 'failed',
      'checks/typecheck-host-rules': 'failed',
      'checks/tests': 'failed',
      bundle: 'skipped',
    });
    expect(logOf(result, 'bundle')).toContain(
      'skipped: failed: definition.load, definition.schema, checks/typecheck',
    );
    // The valid definitions are still described; the caller keeps them only for a passing verdict.
    expect(result.integrations.map((item) => item.slug)).toEqual(['gate-notes']);
  });

  it('checks/typecheck: a finding naming the file and line of a type error', () => {
    const typecheck = result.findings.filter((item) => item.check === 'checks/typecheck');
    expect(typecheck).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'TS2322',
        file: 'src/gate-notes/integration.ts',
        line: lineOf(integration, 'type-error'),
        message: "Type 'string' is not assignable to type 'number'.",
      }),
    ]);
  });

  it("checks/typecheck-host-rules: project.host-compiler-rules for what only the host's rules catch", () => {
    const hostRules = result.findings.filter((item) => item.check === 'checks/typecheck-host-rules');
    expect(hostRules).toEqual([
      {
        check: 'checks/typecheck-host-rules',
        severity: 'error',
        code: 'project.host-compiler-rules',
        message: "TS2532: Object is possibly 'undefined'.",
        file: 'src/gate-notes/integration.ts',
        line: lineOf(integration, 'host-rules'),
        hint: 'Add "noUncheckedIndexedAccess": true to compilerOptions and fix what it reports.',
      },
    ]);
  });

  it('checks/tests: failed, naming the failing test', () => {
    expect(result.findings).toContainEqual(
      expect.objectContaining({
        check: 'checks/tests',
        code: 'tests.failed',
        file: 'src/gate-notes/integration.test.ts',
        line: lineOf(test, 'failing'),
        message: expect.stringMatching(/^reads the first title: AssertionError: expected 'a' to be 'b'/),
      }),
    );
  });

  it("tests have no network: the outside and this host's loopback both fail, and the listener saw nothing", () => {
    const networkFailures = result.findings.filter((item) => item.file === 'src/gate-notes/network.test.ts');
    expect(networkFailures.map((item) => item.message.split(':')[0])).toEqual([
      'reaches the outside',
      'reaches the host on its loopback',
    ]);
    expect(listener.count()).toBe(1);
  });

  it('records how the network was taken away', async () => {
    const log = logOf(result, 'checks/tests');
    const why = await unshareUnavailable();
    expect(log).toContain(
      why === undefined ? 'network: none' : 'network: blocked in each Node process by a preload',
    );
  });

  it('definition.load and definition.schema: a load failure, schema problems, a slug that disagrees', () => {
    const load = result.findings.filter((item) => item.check === 'definition.load');
    expect(load).toEqual([
      expect.objectContaining({
        code: 'definition.load',
        file: 'src/throws-on-load/integration.ts',
        message:
          'throws-on-load (src/throws-on-load/integration.ts) failed to load: Error: cannot start without ACME_KEY',
      }),
    ]);
    const schema = result.findings.filter((item) => item.check === 'definition.schema');
    expect(schema).toEqual([
      expect.objectContaining({
        code: 'project.slug-agreement',
        file: 'platform.json',
        message:
          'platform.json names "mislabeled" but src/mislabeled/integration.ts declares slug "something-else"',
      }),
      expect.objectContaining({
        code: 'definition.schema',
        file: 'src/bad-def/integration.ts',
        message: expect.stringMatching(/^bad-def: schedules\[nightly\]: /),
      }),
    ]);
  });
});

describe('install', () => {
  it("fails on a lockfile whose integrity differs from what the host's registry serves, skipping what needs it", async () => {
    const lock = JSON.parse(lockfile);
    const served = lock.packages['node_modules/@platform/sdk'].integrity as string;
    const pinned = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;
    lock.packages['node_modules/@platform/sdk'].integrity = pinned;
    const project = await makeProject(registry.url, {}, JSON.stringify(lock, null, 2));
    cleanup.push(project.dir);
    const { result, workDir } = await gateProject(project.dir, {
      registry: registry.url,
      describe: describeBundle,
    });
    cleanup.push(workDir);
    expect(result.verdict).toBe('rejected');
    expect(statuses(result)).toEqual({
      archive: 'passed',
      install: 'failed',
      'definition.load': 'skipped',
      'definition.schema': 'skipped',
      'checks/typecheck': 'skipped',
      'checks/typecheck-host-rules': 'skipped',
      'checks/tests': 'skipped',
      bundle: 'skipped',
    });
    expect(result.findings).toEqual([
      expect.objectContaining({
        check: 'install',
        code: 'install.integrity',
        file: 'package-lock.json',
        message: `package-lock.json pins @platform/sdk@0.5.0 with integrity ${pinned}, but the host's registry serves ${served}`,
        hint: expect.stringMatching(/^Run `npm install`/),
      }),
    ]);
    expect(logOf(result, 'checks/tests')).toBe('skipped: install failed\n');
    expect(existsSync(join(workDir, 'project', 'node_modules'))).toBe(false);
  }, 120_000);
});

describe('install, before npm runs', () => {
  it('refuses local dependencies from outside the project folder, and sources other than registries', async () => {
    const lock = JSON.parse(lockfile);
    lock.packages['node_modules/host-files'] = { resolved: '../../../etc', link: true };
    lock.packages['node_modules/host-tarball'] = { version: '1.0.0', resolved: 'file:/srv/x.tgz' };
    lock.packages['node_modules/metadata'] = {
      version: '1.0.0',
      resolved: 'http://169.254.169.254/latest/x.tgz',
    };
    const project = await makeProject(registry.url, {}, JSON.stringify(lock, null, 2));
    cleanup.push(project.dir);
    const { result, workDir } = await gateProject(project.dir, {
      registry: registry.url,
      describe: describeBundle,
    });
    cleanup.push(workDir);
    expect(statuses(result).install).toBe('failed');
    expect(result.findings.map((item) => [item.code, item.message])).toEqual([
      [
        'install.outside-project',
        'package-lock.json installs node_modules/host-files from ../../../etc, outside the project folder',
      ],
      [
        'install.outside-project',
        'package-lock.json installs node_modules/host-tarball from /srv/x.tgz, outside the project folder',
      ],
      [
        'install.unsupported-source',
        "package-lock.json installs node_modules/metadata from http://169.254.169.254/latest/x.tgz; the gate installs from the npm registry, the host's registry and files inside the project",
      ],
    ]);
    expect(existsSync(join(workDir, 'project', 'node_modules'))).toBe(false);
  }, 60_000);
});

describe('archive', () => {
  it('refuses bad listing fields in platform.json with a finding per field, and skips everything else', async () => {
    const entry = { slug: 'gate-notes', entry: 'src/gate-notes/integration.ts' };
    const project = await makeProject(
      registry.url,
      {
        'platform.json': JSON.stringify({
          integrations: [{ ...entry, name: '', icon: 'house-chimney-heart', docs: 'docs/big.md' }],
        }),
        'docs/big.md': 'x'.repeat(64 * 1024 + 1),
      },
      lockfile,
    );
    cleanup.push(project.dir);
    const { result, workDir } = await gateProject(project.dir, {
      registry: registry.url,
      describe: describeBundle,
    });
    cleanup.push(workDir);
    expect(result.verdict).toBe('rejected');
    expect(statuses(result).archive).toBe('failed');
    expect(result.checks.slice(1).every((check) => check.status === 'skipped')).toBe(true);
    expect(result.findings).toEqual([
      {
        check: 'archive',
        severity: 'error',
        code: 'archive.listing',
        message:
          'platform.json integrations[0].name ("gate-notes"): "name" must be a string of 1 to 80 characters (got 0 characters)',
        file: 'platform.json',
        hint: expect.stringMatching(/^Give "name"/),
      },
      expect.objectContaining({
        code: 'archive.listing',
        message: expect.stringContaining('"house-chimney-heart", which is not in the free icon set'),
        hint: 'Use the free icon "house-chimney" instead, or pick another from the free set.',
      }),
      expect.objectContaining({
        code: 'archive.listing',
        message: expect.stringContaining('docs/big.md is 65 KiB; the listing docs may be at most 64 KiB'),
      }),
    ]);
  }, 60_000);

  it('refuses local secrets before unpacking anything, and skips everything else', async () => {
    const project = await makeProject(registry.url, { '.env.local': 'ACME_KEY=secret\n' }, lockfile);
    cleanup.push(project.dir);
    const { result, workDir } = await gateProject(project.dir, {
      registry: registry.url,
      describe: describeBundle,
    });
    cleanup.push(workDir);
    expect(result.verdict).toBe('rejected');
    expect(result.checks.map((check) => check.status)).toEqual([
      'failed',
      ...GATE_CHECKS.slice(1).map(() => 'skipped'),
    ]);
    expect(result.findings).toEqual([
      {
        check: 'archive',
        severity: 'error',
        code: 'archive.local_secrets',
        message:
          'the tarball carries .env.local: local secrets never leave your machine; remove it (platform publish leaves it out)',
        file: '.env.local',
        hint: 'Remove .env.local from the archive; `platform publish` leaves it out.',
      },
    ]);
    expect(await readdir(workDir)).not.toContain('project');
  }, 60_000);
});
