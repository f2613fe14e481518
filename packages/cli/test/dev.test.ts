// `platform dev` as a user runs it: the built binary as a child process on a copy of a fixture
// project, a free port (--port 0), the JSON ready line parsed, then real HTTP requests.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { DevReport } from '@platform/cli';
import { CLI_VERSION } from '@platform/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, cleanEnv, envelopeOf, REPO_ROOT, run, tempDirectories } from './_helpers.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'dev-project');
const HARNESS_DIR = join(REPO_ROOT, 'packages', 'harness');
const HARNESS_VERSION = (
  JSON.parse(readFileSync(join(HARNESS_DIR, 'package.json'), 'utf8')) as { version: string }
).version;
const tempDir = tempDirectories();

// The CLI's global setup builds what the CLI loads; the harness is loaded by the project (from
// its dist, as when installed), so build it here too. Incremental: a no-op when current.
beforeAll(() => {
  execFileSync(
    process.execPath,
    [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'packages/harness'],
    {
      cwd: REPO_ROOT,
      stdio: 'pipe',
    },
  );
}, 300_000);

type HarnessSetup = 'installed' | 'missing' | { readonly shellContract: number | null };

/**
 * A copy of the fixture project whose node_modules holds links to this repository's packages,
 * except `@platform/harness`: a package folder of its own (package.json copied, `dist` and `src`
 * linked), so a test can change its shell contract. Until the harness exports `./shell`, the copy
 * adds one that mounts nothing: these tests check what is served, not what the page renders.
 */
function devProject(harness: HarnessSetup = 'installed'): string {
  const root = tempDir('platform-dev-test-');
  const project = join(root, 'project');
  cpSync(FIXTURE, project, { recursive: true });
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, '@platform'), { recursive: true });
  const repoModules = join(REPO_ROOT, 'node_modules');
  for (const name of readdirSync(repoModules)) {
    if (name.startsWith('.') || name === '@platform') continue;
    symlinkSync(join(repoModules, name), join(modules, name), 'dir');
  }
  for (const name of readdirSync(join(repoModules, '@platform'))) {
    if (name === 'harness') continue;
    symlinkSync(join(repoModules, '@platform', name), join(modules, '@platform', name), 'dir');
  }
  if (harness === 'missing') return project;

  const copy = join(root, 'harness');
  mkdirSync(copy);
  symlinkSync(join(HARNESS_DIR, 'dist'), join(copy, 'dist'), 'dir');
  symlinkSync(join(HARNESS_DIR, 'src'), join(copy, 'src'), 'dir');
  const pkg = JSON.parse(readFileSync(join(HARNESS_DIR, 'package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
    platform?: { shellContract?: number };
  };
  if (pkg.exports['./shell'] === undefined) {
    writeFileSync(join(copy, 'shell.js'), 'export function mountHarnessShell() {}\n');
    pkg.exports['./shell'] = { default: './shell.js' };
  }
  if (harness !== 'installed') {
    pkg.platform = harness.shellContract === null ? {} : { shellContract: harness.shellContract };
  }
  writeFileSync(join(copy, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  symlinkSync(copy, join(modules, '@platform', 'harness'), 'dir');
  return project;
}

/** A running `platform dev`: its ready line, what it printed on stderr so far, and how it exited. */
interface Dev {
  readonly child: ChildProcessWithoutNullStreams;
  readonly ready: { ok: boolean; data?: DevReport };
  readonly report: DevReport;
  stderr(): string;
  stdout(): string;
  readonly exit: Promise<number | null>;
}

const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid, 'SIGKILL');
    }
  }
});

/** Starts `platform dev --port 0 --json` in `project` and waits (generously) for its ready line. */
function startDev(project: string): Promise<Dev> {
  const child = spawn(process.execPath, [CLI_BIN, 'dev', '--port', '0', '--json'], {
    cwd: project,
    env: cleanEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`platform dev did not get ready:\n${stderr}`)), 90_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const newline = stdout.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(timer);
      const ready = JSON.parse(stdout.slice(0, newline)) as { ok: boolean; data?: DevReport };
      if (ready.data === undefined) reject(new Error(`platform dev failed: ${stdout}\n${stderr}`));
      else resolve({ child, ready, report: ready.data, stderr: () => stderr, stdout: () => stdout, exit });
    });
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`platform dev exited with ${code} before it was ready:\n${stdout}\n${stderr}`));
    });
  });
}

/** Stops a dev server the way Ctrl+C does and returns its exit code. */
async function stop(dev: Dev, signal: NodeJS.Signals = 'SIGINT'): Promise<number | null> {
  if (dev.child.pid !== undefined) process.kill(dev.child.pid, signal);
  return dev.exit;
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One HTTP request with full control of the headers (fetch would not send another Host). */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const action = (dev: Dev, name: string, input: unknown, headers: Record<string, string> = {}) =>
  send(new URL(`api/integrations/dev-notes/actions/${name}`, dev.report.url).href, {
    method: 'POST',
    body: input,
    headers,
  });

/** Repeats `attempt` until `done` holds for its answer (a save reaches the server when the watcher tells it). */
async function eventually(
  attempt: () => Promise<Answer>,
  done: (answer: Answer) => boolean,
): Promise<Answer> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await attempt();
    if (done(answer) || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const MAIN_TSX = `import { mountHarnessShell } from '@platform/harness/shell';
import { harnessIntegrations } from '../../harness.config';
mountHarnessShell({ registry: harnessIntegrations, root: document.getElementById('root')! });
`;

describe('platform dev on a project with the harness installed', () => {
  let project: string;
  let dev: Dev;

  beforeAll(async () => {
    project = devProject();
    dev = await startDev(project);
  }, 120_000);

  it('prints one JSON ready line with the URL, the shell folder and the harness', () => {
    expect(dev.ready).toEqual({
      ok: true,
      data: {
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
        shellDir: join(project, '.platform', 'shell'),
        harness: { version: HARNESS_VERSION, shellContract: 2 },
        shellWritten: true,
      },
    });
  });

  it('writes the shell: index.html, main.tsx and shell.json naming what generated it', () => {
    const shell = join(project, '.platform', 'shell');
    const html = readFileSync(join(shell, 'index.html'), 'utf8');
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('<script type="module" src="/main.tsx"></script>');
    expect(html).toContain('<!-- generated by platform dev; do not edit -->');
    expect(readFileSync(join(shell, 'main.tsx'), 'utf8')).toBe(
      `// generated by platform dev; do not edit\n${MAIN_TSX}`,
    );
    expect(JSON.parse(readFileSync(join(shell, 'shell.json'), 'utf8'))).toEqual({
      $comment: 'generated by platform dev; do not edit',
      cli: CLI_VERSION,
      harness: HARNESS_VERSION,
      shellContract: 2,
    });
  });

  it('serves the page: the shell HTML with the Vite client and React refresh', async () => {
    const page = await send(dev.report.url);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<div id="root"></div>');
    expect(page.body).toContain('/@vite/client');
    expect(page.body).toContain('/@react-refresh');
    // Any path the shell's router owns falls back to the same page.
    expect((await send(new URL('integrations/dev-notes', dev.report.url).href)).body).toContain(
      '<div id="root"></div>',
    );
  });

  it('serves /main.tsx transformed to JavaScript that mounts the harness shell on harness.config.ts', async () => {
    const main = await send(new URL('main.tsx', dev.report.url).href);
    expect(main.status, main.body).toBe(200);
    expect(main.headers['content-type']).toMatch(/javascript/);
    expect(main.body).not.toContain('document.getElementById("root")!');
    expect(main.body).toMatch(/import \{ mountHarnessShell \} from "[^"]*harness[^"]*shell[^"]*"/);
    expect(main.body).toMatch(/import \{ harnessIntegrations \} from "[^"]*\/harness\.config\.ts"/);
    expect(main.body).toContain('mountHarnessShell({');
    // What it imports is served too: the harness package and the project's config (fs.allow).
    const imports = [...main.body.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1] ?? '');
    const served = imports.filter((path) => /shell|harness\.config/.test(path));
    expect(served).toHaveLength(2);
    for (const path of served) {
      const module = await send(new URL(path, dev.report.url).href);
      expect(module.status, `${path}: ${module.body}`).toBe(200);
    }
  });

  it('accepts the HMR websocket of the page on the same port', async () => {
    const client = await send(new URL('@vite/client', dev.report.url).href);
    const token = /const wsToken = "([^"]+)"/.exec(client.body)?.[1];
    expect(token).toBeDefined();
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(new URL(`/?token=${token}`, dev.report.url), {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          'sec-websocket-version': '13',
          'sec-websocket-protocol': 'vite-hmr',
        },
      });
      req.on('upgrade', (res, socket) => {
        socket.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(101);
  });

  it('answers actions from the harness handlers in fixtures mode, state kept between calls', async () => {
    const first = await action(dev, 'add-note', { title: 'First' });
    expect(first.status, first.body).toBe(200);
    expect(first.headers['x-harness-mode']).toBe('fixtures');
    expect(JSON.parse(first.body)).toEqual({ ok: true, data: { notes: [{ id: 'n1', title: 'First' }] } });
    const second = await action(dev, 'add-note', { title: 'Second' });
    expect(JSON.parse(second.body).data.notes).toHaveLength(2);

    const vendor = await action(dev, 'vendor-notes', {});
    expect(JSON.parse(vendor.body)).toEqual({
      ok: true,
      data: { notes: [{ id: 'v1', title: 'From the vendor' }] },
    });
    const empty = await action(dev, 'vendor-notes', {}, { 'x-harness-variant': 'empty' });
    expect(JSON.parse(empty.body)).toEqual({ ok: true, data: { notes: [] } });

    const unknown = await action(dev, 'no-such-action', {});
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toBe('action_not_found');
  });

  it('refuses a foreign Host header, on the API and on the pages', async () => {
    const api = await action(dev, 'add-note', { title: 'x' }, { host: 'evil.example' });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body).error.code).toBe('forbidden');
    const page = await send(dev.report.url, { headers: { host: 'evil.example' } });
    expect(page.status).toBe(403);
  });

  it('stops on SIGTERM with exit code 0, stdout holding the ready line only', async () => {
    expect(await stop(dev, 'SIGTERM')).toBe(0);
    expect(dev.stdout().trim().split('\n')).toEqual([JSON.stringify(dev.ready)]);
    // The log went to stderr: one line per API request among it.
    expect(dev.stderr()).toMatch(
      /\[harness\] POST \/api\/integrations\/dev-notes\/actions\/add-note \(fixtures, default\) -> 200/,
    );
  });

  it('leaves a current shell alone and regenerates it when the harness version changes', async () => {
    const shellJson = join(project, '.platform', 'shell', 'shell.json');
    const mainTsx = join(project, '.platform', 'shell', 'main.tsx');
    const written = statSync(mainTsx).mtimeMs;

    const again = await startDev(project);
    expect(again.report.shellWritten).toBe(false);
    expect(statSync(mainTsx).mtimeMs).toBe(written);
    expect(await stop(again)).toBe(0);

    // As if an older harness had generated it: the next start writes it anew.
    writeFileSync(shellJson, JSON.stringify({ cli: CLI_VERSION, harness: '0.3.0', shellContract: 2 }));
    writeFileSync(mainTsx, '// stale\n');
    const regenerated = await startDev(project);
    expect(regenerated.report.shellWritten).toBe(true);
    expect(JSON.parse(readFileSync(shellJson, 'utf8')).harness).toBe(HARNESS_VERSION);
    expect(readFileSync(mainTsx, 'utf8')).toContain(MAIN_TSX);
    expect(await stop(regenerated)).toBe(0);
  }, 120_000);
});

describe('platform dev refuses to start', () => {
  it('when the harness speaks an older shell contract, naming the harness to upgrade (exit 9)', async () => {
    const project = devProject({ shellContract: 1 });
    const result = await run(['dev', '--json', '--port', '0'], { cwd: project });
    expect(result.code).toBe(9);
    const { error } = envelopeOf(result);
    expect(error?.code).toBe('precondition_failed');
    expect(error?.message).toMatch(/speaks shell contract 1.*generates shell contract 2/);
    expect(error?.hint).toContain('npm install -D @platform/harness@^0.4.0');
    expect(error?.hint).toContain('platform upgrade');
    expect(existsSync(join(project, '.platform', 'shell'))).toBe(false);
  });

  it('when the harness declares no contract at all, as an older harness', async () => {
    const result = await run(['dev', '--json'], { cwd: devProject({ shellContract: null }) });
    expect(result.code).toBe(9);
    expect(envelopeOf(result).error?.message).toContain('declares no shell contract');
  });

  it('when the harness speaks a newer shell contract, naming the CLI to upgrade (exit 9)', async () => {
    const result = await run(['dev', '--json'], { cwd: devProject({ shellContract: 3 }) });
    expect(result.code).toBe(9);
    const { error } = envelopeOf(result);
    expect(error?.message).toContain('this CLI is older than the harness');
    expect(error?.hint).toContain('npx @platform/cli@latest upgrade');
  });

  it('when @platform/harness is not installed, naming the install command (exit 9)', async () => {
    const result = await run(['dev', '--json'], { cwd: devProject('missing') });
    expect(result.code).toBe(9);
    const { error } = envelopeOf(result);
    expect(error?.code).toBe('precondition_failed');
    expect(error?.message).toContain('@platform/harness is not installed');
    expect(error?.hint).toContain('npm install -D @platform/harness@^0.4.0');
  });

  it('when the port is taken, naming --port (exit 1)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const result = await run(['dev', '--json', '--port', String(port)], { cwd: devProject() });
      expect(result.code).toBe(1);
      const { error } = envelopeOf(result);
      expect(error?.code).toBe('port_in_use');
      expect(error?.message).toContain(`Port ${port}`);
      expect(error?.hint).toContain('--port');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('when --port is not a port number (exit 2)', async () => {
    const result = await run(['dev', '--json', '--port', 'http'], { cwd: devProject('missing') });
    expect(result.code).toBe(2);
    expect(envelopeOf(result).error?.hint).toContain('--port');
  });
});

describe('platform dev with a broken harness.config.ts or definition', () => {
  let project: string;
  let dev: Dev;
  const configFile = () => join(project, 'harness.config.ts');
  const entryFile = () => join(project, 'src', 'dev-notes', 'integration.ts');
  let goodConfig: string;
  let goodEntry: string;

  beforeAll(async () => {
    project = devProject();
    goodConfig = readFileSync(configFile(), 'utf8');
    goodEntry = readFileSync(entryFile(), 'utf8');
    writeFileSync(configFile(), goodConfig.replace("slug: 'dev-notes'", "slug: 'dev notes'"));
    dev = await startDev(project);
  }, 120_000);

  it('reports the config error with the validate findings, and keeps serving the pages', async () => {
    expect(dev.ready.ok).toBe(true);
    expect(dev.stderr()).toContain('harness.config.ts failed to load');
    expect(dev.stderr()).toContain('"dev notes" is not a valid harness slug');
    // The report `platform validate` prints follows.
    expect(dev.stderr()).toMatch(/platform validate .*\nChecked 1 integration: dev-notes/);
    expect((await send(dev.report.url)).status).toBe(200);
    const answer = await action(dev, 'add-note', { title: 'x' });
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body).error).toMatchObject({
      code: 'harness_unavailable',
      message: expect.stringContaining('is not a valid harness slug'),
    });
    // A failed load keeps the API to loopback hosts.
    expect((await action(dev, 'add-note', { title: 'x' }, { host: 'evil.example' })).status).toBe(403);
  });

  it('prints definition findings as validate does when the definition fails, and recovers on save', async () => {
    writeFileSync(configFile(), goodConfig);
    writeFileSync(entryFile(), goodEntry.replace("slug: 'dev-notes'", "slug: 'Dev Notes'"));
    const broken = await eventually(
      () => action(dev, 'add-note', { title: 'x' }),
      (answer) => answer.status === 503 && !answer.body.includes('is not a valid harness slug'),
    );
    expect(broken.status).toBe(503);
    expect(JSON.parse(broken.body).error.findings).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'definition.schema', severity: 'error' })]),
    );
    expect(dev.stderr()).toMatch(/error {3}definition\.schema {2}/);

    writeFileSync(entryFile(), goodEntry);
    const fixed = await eventually(
      () => action(dev, 'add-note', { title: 'Back' }),
      (answer) => answer.status === 200,
    );
    expect(fixed.status, fixed.body).toBe(200);
    expect(JSON.parse(fixed.body).data.notes).toEqual([{ id: 'n1', title: 'Back' }]);
    expect(dev.stderr()).toContain('Recovered: loaded harness.config.ts (1 integration: dev-notes)');
    expect(await stop(dev)).toBe(0);
  }, 120_000);
});
