#!/usr/bin/env node
// `platform-host`: the only place that prints and exits; every command is a function in ./cli/.
import pino from 'pino';

// Read before the command's modules load (seconds when run from source), so that a parent gone
// in the meantime is noticed too (see the parent watch below).
const parentAtStart = process.ppid;
const { runCli } = await import('./cli/runCli.js');

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const write = (stream: NodeJS.WriteStream, text: string) =>
  new Promise<void>((resolve) => (text === '' ? resolve() : stream.write(text, () => resolve())));

const outcome = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  readStdin,
  // One-shot commands keep stdout for their result (and `--json` for the envelope alone).
  logger: pino({ level: 'error' }, pino.destination(2)),
});

if (outcome.kind === 'exit') {
  await write(process.stdout, outcome.stdout);
  await write(process.stderr, outcome.stderr);
  process.exit(outcome.exitCode);
}

const { server } = outcome;
await write(process.stdout, outcome.stdout);

// Run by a package manager's script (`npm start`, whose `exec` makes this process npm's child), npm
// passes on the SIGINT and SIGTERM it gets, so Ctrl-C in a terminal arrives twice: from the
// terminal and from npm. And if npm goes away without passing a signal on (killed, crashed), this
// process would keep the port and the data folder: it stops as on SIGTERM when its parent is gone.
// Neither applies elsewhere: `nohup platform-host serve &` is meant to outlive its shell.
const underScript = process.env.npm_lifecycle_event !== undefined && parentAtStart > 1;
const SAME_SIGNAL_MS = 1000;

let stopping: { signal: NodeJS.Signals | 'parent exited'; at: number } | undefined;
const stop = (signal: NodeJS.Signals | 'parent exited') => {
  const logger = server.host.services.logger;
  clearInterval(parentWatch);
  if (stopping !== undefined) {
    // The parent going away during shutdown is no second request, nor is npm's copy of a signal.
    if (signal === 'parent exited') return;
    if (underScript && signal === stopping.signal && performance.now() - stopping.at < SAME_SIGNAL_MS) return;
    logger.warn({ signal }, 'second signal: exiting without waiting');
    process.exit(1);
  }
  stopping = { signal, at: performance.now() };
  logger.info({ signal }, 'shutting down: finishing in-flight requests');
  server.close().then(
    () => {
      logger.info('stopped');
      process.exit(0);
    },
    (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
const parentWatch = underScript
  ? setInterval(() => {
      if (process.ppid !== parentAtStart) stop('parent exited');
    }, 250).unref()
  : undefined;
