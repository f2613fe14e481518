// Starting `platform dev` as a user runs it, shared by dev.test.ts and the browser tests: the built
// binary as a child process on a copy of a project whose node_modules links this repository's packages.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { DevReport } from '@platform/cli';
import { afterAll, beforeAll } from 'vitest';
import { CLI_BIN, cleanEnv, REPO_ROOT, tempDirectories } from './_helpers.js';

const tempDir = tempDirectories();

export const DEV_FIXTURE = join(import.meta.dirname, 'fixtures', 'dev-project');
export const HARNESS_DIR = join(REPO_ROOT, 'packages', 'harness');
export const HARNESS_VERSION = (
  JSON.parse(readFileSync(join(HARNESS_DIR, 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * The CLI's global setup builds what the CLI loads; the harness is loaded by the project (from its
 * dist, as when installed), so a test file calls this in its module scope to build it too.
 * Incremental: a no-op when current.
 */
export function buildHarnessBeforeAll(): void {
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
}

export type HarnessSetup = 'installed' | 'missing' | { readonly shellContract: number | null };

/**
 * A copy of the fixture project whose node_modules holds links to this repository's packages,
 * except `@platform/harness`: a package folder of its own (package.json copied, `dist` and `src`
 * linked), so a test can change its shell contract.
 */
export function devProject(harness: HarnessSetup = 'installed', fixture = DEV_FIXTURE): string {
  const root = tempDir('platform-dev-test-');
  const project = join(root, 'project');
  cpSync(fixture, project, {
    recursive: true,
    filter: (source) => !/[\\/](node_modules|\.platform)$/.test(source),
  });
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
  if (harness !== 'installed') {
    pkg.platform = harness.shellContract === null ? {} : { shellContract: harness.shellContract };
  }
  writeFileSync(join(copy, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  symlinkSync(copy, join(modules, '@platform', 'harness'), 'dir');
  return project;
}

/** A running `platform dev`: its ready line, what it printed on stderr so far, and how it exited. */
export interface Dev {
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
export function startDev(
  project: string,
  /** Another `platform` binary (an installed one) and its environment; default this repository's build. */
  options: { readonly command?: string; readonly env?: Record<string, string>; readonly port?: number } = {},
): Promise<Dev> {
  const [command, args] =
    options.command === undefined ? [process.execPath, [CLI_BIN]] : [options.command, []];
  const child = spawn(command, [...args, 'dev', '--port', String(options.port ?? 0), '--json'], {
    cwd: project,
    env: options.env ?? cleanEnv(),
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
export async function stop(dev: Dev, signal: NodeJS.Signals = 'SIGINT'): Promise<number | null> {
  if (dev.child.pid !== undefined) process.kill(dev.child.pid, signal);
  return dev.exit;
}

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One HTTP request with full control of the headers (fetch would not send another Host). */
export function send(
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
