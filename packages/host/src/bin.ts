#!/usr/bin/env node
// `platform-host`: the only place that prints and exits; every command is a function in ./cli/.
import pino from 'pino';
import { runCli } from './cli/runCli.js';

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
let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  const logger = server.host.services.logger;
  if (stopping) {
    logger.warn({ signal }, 'second signal: exiting without waiting');
    process.exit(1);
  }
  stopping = true;
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
