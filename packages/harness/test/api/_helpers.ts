import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HarnessRegistryEntry } from '@platform/harness';
import { createHarnessApiHandlers, type HarnessApiOptions } from '@platform/harness/api';
import { afterEach } from 'vitest';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh project directory, removed after the test. */
export async function tempProject(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'harness-api-'));
  dirs.push(dir);
  return dir;
}

/** Handlers over a registry in a temp project, with the log lines captured. */
export async function harness(
  entries: readonly HarnessRegistryEntry[],
  options: HarnessApiOptions = {},
): Promise<{ handlers: ReturnType<typeof createHarnessApiHandlers>; lines: string[]; projectDir: string }> {
  const lines: string[] = [];
  const projectDir = options.projectDir ?? (await tempProject());
  const handlers = createHarnessApiHandlers(entries, {
    env: {},
    log: (line) => lines.push(line),
    ...options,
    projectDir,
  });
  return { handlers, lines, projectDir };
}

export interface CallOptions {
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly base?: string;
}

/** One request through the handlers; the body is sent as JSON unless it is a string. */
export async function send(
  handlers: { fetch: (request: Request) => Promise<Response> },
  method: 'GET' | 'POST',
  path: string,
  options: CallOptions = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const init: RequestInit = {
    method,
    headers: { ...(method === 'POST' ? { 'content-type': 'application/json' } : {}), ...options.headers },
  };
  if (options.body !== undefined)
    init.body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const response = await handlers.fetch(
    new Request(`${options.base ?? 'http://localhost:5173'}${path}`, init),
  );
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text), headers: response.headers };
}
