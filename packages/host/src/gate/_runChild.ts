import { spawn } from 'node:child_process';

/** How a child process ended. `code` is null when it was killed (or never started: `spawnError`). */
export interface ChildOutcome {
  readonly code: number | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  readonly spawnError?: Error;
  readonly ms: number;
  /** What the child wrote to file descriptor 3 (when `report` was asked for), at most `report.maxBytes`. */
  readonly report?: { readonly bytes: Buffer; readonly overflow: boolean };
}

/** After the child exits, how long its stdout/stderr may stay open (held by something it left behind). */
const PIPE_GRACE_MS = 2000;

/**
 * Runs a command in a process group of its own, its output into `log`. Past `timeoutMs` (or on
 * `signal`) the whole group is killed; when the child exits, whatever it left running in its group
 * is killed too.
 */
export function runChild(run: {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** Run as this user and group (the host must be root). */
  uid?: number | undefined;
  gid?: number | undefined;
  timeoutMs: number;
  /** Where stdout and stderr go, as they come. */
  log: { write(chunk: Buffer): void };
  signal?: AbortSignal | undefined;
  /** Gives the child a pipe as file descriptor 3 and keeps what it writes there, up to `maxBytes`. */
  report?: { readonly maxBytes: number } | undefined;
}): Promise<ChildOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let timedOut = false;
    let aborted = false;
    let done = false;
    let code: number | null = null;
    let spawnError: Error | undefined;
    let grace: NodeJS.Timeout | undefined;
    const reportChunks: Buffer[] = [];
    let reportSize = 0;
    let overflow = false;
    const child = spawn(run.command, run.args, {
      cwd: run.cwd,
      env: run.env,
      detached: true,
      stdio: run.report === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe', 'pipe'],
      ...(run.uid === undefined ? {} : { uid: run.uid }),
      ...(run.gid === undefined ? {} : { gid: run.gid }),
    });
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, run.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    run.signal?.addEventListener('abort', onAbort, { once: true });
    if (run.signal?.aborted) onAbort();
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(grace);
      run.signal?.removeEventListener('abort', onAbort);
      resolve({
        code,
        timedOut,
        aborted,
        ...(spawnError === undefined ? {} : { spawnError }),
        ...(run.report === undefined ? {} : { report: { bytes: Buffer.concat(reportChunks), overflow } }),
        ms: Math.round(performance.now() - started),
      });
    };
    child.stdout!.on('data', (chunk: Buffer) => run.log.write(chunk));
    child.stderr!.on('data', (chunk: Buffer) => run.log.write(chunk));
    const reportPipe = run.report === undefined ? undefined : child.stdio[3];
    reportPipe?.on('data', (chunk: Buffer) => {
      if (reportSize + chunk.length > run.report!.maxBytes) {
        overflow = true;
        reportPipe.destroy();
        return;
      }
      reportChunks.push(chunk);
      reportSize += chunk.length;
    });
    reportPipe?.on('error', () => {});
    child.on('error', (error) => {
      spawnError = error;
      finish();
    });
    child.on('exit', (exitCode) => {
      code = exitCode;
      killGroup();
      grace = setTimeout(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
        reportPipe?.destroy();
        finish();
      }, PIPE_GRACE_MS);
    });
    child.on('close', finish);
  });
}

/** A time limit as the gate's messages say it: `90 s`, `1.5 s`. */
export const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
