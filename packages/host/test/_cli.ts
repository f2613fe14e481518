import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(REPO_ROOT, 'packages/host/src/bin.ts');

/** The real bin from source, as `npm start` runs it (tsx, source condition), without npm in between. */
const binArgs = (args: readonly string[]) => [
  '--import',
  'tsx',
  '--conditions=@platform/source',
  BIN,
  ...args,
];

/** The environment of a subprocess: no inherited database or key, so tests never touch a real setup by accident. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, PLATFORM_SECRET_KEY: _key, LOG_LEVEL: _level, ...rest } = process.env;
  return { ...rest, ...extra };
}

export interface BinResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `platform-host <args>` to completion. */
export function runBin(
  args: readonly string[],
  options: { stdin?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, binArgs(args), { cwd: REPO_ROOT, env: options.env ?? childEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

export interface ServeProcess {
  readonly child: ChildProcess;
  /** Everything printed so far. */
  output(): string;
  /** The banner's lines once the server listens. */
  readonly banner: string;
  readonly baseUrl: string;
  readonly curl: string;
  /** Sends `signal`; resolves with the exit code and how long the exit took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

/** Starts `platform-host serve <args>` and waits for the banner. */
export function startServe(
  args: readonly string[],
  env: NodeJS.ProcessEnv = childEnv(),
): Promise<ServeProcess> {
  const child = spawn(process.execPath, binArgs(['serve', ...args]), { cwd: REPO_ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve printed no banner in 60 s:\n${stdout}\n${stderr}`)),
      60_000,
    );
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${signal ?? code}) before listening:\n${stdout}\n${stderr}`));
    });
    child.stdout.on('data', () => {
      if (!stdout.includes('Stop with Ctrl-C.')) return;
      clearTimeout(timer);
      const baseUrl = /listening on (http:\/\/\S+)/.exec(stdout)?.[1] ?? '';
      const curl = stdout.split('\n').find((line) => line.trim().startsWith('curl ')) ?? '';
      resolve({
        child,
        output: () => `${stdout}${stderr}`,
        banner: stdout.slice(stdout.indexOf('Platform host listening')),
        baseUrl,
        curl: curl.trim(),
        async stop(signal = 'SIGTERM') {
          const started = performance.now();
          child.kill(signal);
          const result = await exited;
          return { ...result, ms: performance.now() - started };
        },
      });
    });
  });
}

// One shell word of a printed line: '...' literal, "..." with `$(cat FILE)` read, or bare.
const WORD = /'([^']*)'|"((?:[^"\\$]|\$\((?:[^)'"]|'[^']*')*\))*)"|(\S+)/g;
const CAT = /\$\(cat (?:'([^']*)'|(\S+?))\)/g;

/**
 * The request a printed `curl` line makes, for `fetch`:
 * `curl -sS [-X M] "URL" [-H "k: v"]... [-d 'BODY']`, where a double-quoted word may read a file
 * with `$(cat FILE)` (relative to `cwd`, as the shell would in the folder the line was printed for).
 * Anything else in the line fails the parse, so the line must stay pasteable as printed.
 */
export function parseCurl(line: string, cwd: string = REPO_ROOT): { url: string; init: RequestInit } {
  const expand = (text: string) =>
    text.replace(CAT, (_, quoted: string | undefined, bare: string | undefined) =>
      readFileSync(resolve(cwd, quoted ?? bare ?? ''), 'utf8').replace(/\n$/, ''),
    );
  const words = [...line.matchAll(WORD)].map((match) =>
    match[1] !== undefined ? match[1] : match[2] !== undefined ? expand(match[2]) : match[3]!,
  );
  if (words.shift() !== 'curl') throw new Error(`not a curl line: ${line}`);
  let url: string | undefined;
  let method = 'GET';
  let body: string | undefined;
  const headers: [string, string][] = [];
  while (words.length > 0) {
    const word = words.shift()!;
    if (word === '-sS') continue;
    if (word === '-X') method = words.shift()!;
    else if (word === '-H') {
      const header = words.shift()!;
      const colon = header.indexOf(':');
      headers.push([header.slice(0, colon), header.slice(colon + 1).trim()]);
    } else if (word === '-d') body = words.shift()!;
    else if (!word.startsWith('-') && url === undefined) url = word;
    else throw new Error(`unexpected curl argument ${word} in ${line}`);
  }
  if (url === undefined) throw new Error(`no URL in ${line}`);
  return { url, init: { method, headers, ...(body === undefined ? {} : { body }) } };
}

/** Performs the request of a printed `curl` line. */
export function fetchCurl(line: string, cwd?: string): Promise<Response> {
  const { url, init } = parseCurl(line, cwd);
  return fetch(url, init);
}

/** Runs a printed `curl` line as pasted, with `sh` in `cwd`: its stdout (the response body). */
export function shellCurl(line: string, cwd: string = REPO_ROOT): Promise<BinResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn('sh', ['-c', line], { cwd, env: childEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

/** A temporary folder for one test, removed by `cleanup`. */
export async function tempDir(prefix: string): Promise<{ path: string; cleanup(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `platform-${prefix}-`));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}
