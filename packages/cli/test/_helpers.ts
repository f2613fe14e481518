// Shared by the CLI's tests: run the built `platform` binary as a subprocess, and make throwaway
// partner projects whose packages (@platform/sdk, zod, react, vitest) resolve from this repo.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect } from 'vitest';

export const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');
export const CLI_BIN = join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js');
export const EXAMPLE_PROJECT = join(import.meta.dirname, 'fixtures', 'example');

/** The environment for a subprocess: the test runner's own variables and colour settings removed. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(VITEST|TEST$|NODE_ENV$|NO_COLOR$|FORCE_COLOR$|npm_)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** What one run of a command printed and how it exited. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command (default: the built `platform` binary under this Node) to its end. */
export function run(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; command?: string; timeoutMs?: number },
): Promise<Run> {
  const [command, fullArgs] =
    options.command === undefined ? [process.execPath, [CLI_BIN, ...args]] : [options.command, [...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, fullArgs, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal === null ? -1 : 128), stdout, stderr }),
    );
  });
}

/** The JSON envelope a `--json` run printed: stdout must hold exactly one JSON value. */
export function envelopeOf<T = any>(
  result: Run,
): { ok: boolean; data?: T; error?: { code: string; message: string; hint: string } } {
  let value: unknown;
  expect(() => {
    value = JSON.parse(result.stdout);
  }, `stdout is not one JSON value:\n${result.stdout}\nstderr:\n${result.stderr}`).not.toThrow();
  expect(result.stdout.trim().split('\n')).toHaveLength(1);
  const envelope = value as {
    ok: boolean;
    data?: T;
    error?: { code: string; message: string; hint: string };
  };
  expect(typeof envelope.ok).toBe('boolean');
  if (envelope.ok) {
    expect(Object.keys(envelope).sort()).toEqual(['data', 'ok']);
  } else {
    expect(Object.keys(envelope.error ?? {}).sort()).toEqual(['code', 'hint', 'message']);
    expect(envelope.error?.hint, 'a hint is one imperative sentence').toMatch(/^[A-Z].*\.$/s);
  }
  return envelope;
}

/** Throwaway directories, removed after the test file. */
export function tempDirectories(): (prefix?: string) => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix = 'platform-cli-test-') => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/** Writes `files` (path -> content) under `dir`, creating folders. */
export function writeFiles(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** Links `dir/node_modules` to this repo's, so the project resolves @platform/sdk, zod, react, vitest. */
export function linkRepoNodeModules(dir: string): void {
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

/** A tsconfig.json that satisfies the host compiler rules. */
export const STRICT_TSCONFIG = `${JSON.stringify({ compilerOptions: { strict: true, noUncheckedIndexedAccess: true, jsx: 'react-jsx' } })}\n`;

/** An entry module default-exporting `defineIntegration(<definition source>)`. */
export function entrySource(definition: string, imports = ''): string {
  return `import { defineIntegration } from '@platform/sdk/integration';\nimport { z } from 'zod';\n${imports}\nexport default defineIntegration(${definition});\n`;
}

/** A project with one integration per entry (slug -> entry module source). */
export function projectFiles(
  entries: Readonly<Record<string, string>>,
  extra: { docs?: string[]; files?: Record<string, string> } = {},
): Record<string, string> {
  const integrations = Object.keys(entries).map((slug) => ({ slug, entry: `src/${slug}/integration.ts` }));
  return {
    'platform.json': `${JSON.stringify({ integrations, ...(extra.docs === undefined ? {} : { docs: extra.docs }) }, null, 2)}\n`,
    'package.json': '{ "name": "fixture", "private": true, "type": "module" }\n',
    'tsconfig.json': STRICT_TSCONFIG,
    ...Object.fromEntries(
      Object.entries(entries).map(([slug, source]) => [`src/${slug}/integration.ts`, source]),
    ),
    ...extra.files,
  };
}
