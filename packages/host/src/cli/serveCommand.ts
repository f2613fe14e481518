import { relative, resolve } from 'node:path';
import { DATA_OPTION, DEFAULT_DATA_DIR, dataOptionsFrom } from './_openHost.js';
import { CliError } from './CliError.js';
import type { Command, CommandResult } from './Command.js';
import { integerOption, optionalString } from './parseArgs.js';
import { DEFAULT_HOSTNAME, DEFAULT_PORT, type RunningServer, SHUTDOWN_TIMEOUT_MS, serve } from './serve.js';

/** The text `serve` prints once it listens. */
export function serveBanner(running: RunningServer, cwd: string): string {
  const { demo } = running;
  const shortPath = (path: string) => (path.startsWith(cwd) ? relative(cwd, path) || '.' : path);
  const database =
    running.engine === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${shortPath(running.dataDir)}`;
  const examples = running.examples.flatMap((example) =>
    example.integrations.map(
      (entry) => `${entry.slug}@${entry.version}${example.installed ? ' (installed now)' : ''}`,
    ),
  );
  return [
    `Platform host listening on ${running.url}`,
    `  database: ${database}`,
    `  runtime:  ${running.runtime}${running.runtime === 'in-process' ? ' (partner code is NOT isolated: local development only)' : ''}`,
    '',
    `Demo user:    ${demo.email}  ${demo.password === undefined ? '(password shown on the first start)' : `password: ${demo.password}  (shown on this first start only)`}`,
    `Demo account: ${demo.accountSlug}  id ${demo.accountId}`,
    `Demo token:   ${demo.token}  (saved in ${shortPath(demo.tokenFile)}${demo.tokenReissued ? '; reissued' : ''})`,
    `Examples:     ${examples.length === 0 ? 'none' : examples.join(', ')}`,
    '',
    `Try it (${running.tryIt.description}):`,
    `  ${running.tryIt.curl}`,
    '',
    'Stop with Ctrl-C.',
  ].join('\n');
}

export const serveCommand: Command = {
  path: ['serve'],
  summary: 'Run the host over HTTP (seeds a demo user, account, token and the examples on first start)',
  help: [
    'platform-host serve [--port N] [--host H] [--data DIR] [--examples DIR | --no-examples]',
    '',
    `  --port N            port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)`,
    `  --host H            address to listen on (default ${DEFAULT_HOSTNAME})`,
    `  --data DIR          data folder (default ${DEFAULT_DATA_DIR}): PGlite, secret.key, demo-token`,
    '  --examples DIR      install the projects in DIR (default: the repo examples/ when run from the repo)',
    '  --no-examples       install no example',
    '',
    'Environment: DATABASE_URL (PostgreSQL instead of PGlite), PLATFORM_SECRET_KEY (key for secrets',
    'at rest; default generated into DIR/secret.key), LOG_LEVEL (default info); job workers:',
    'PLATFORM_JOB_CONCURRENCY (default 8), PLATFORM_JOB_PER_INTEGRATION (4), PLATFORM_JOB_LEASE_MS (30000).',
    'Partner code: PLATFORM_RUNTIME (isolated, the default: V8 isolates in runner processes; in-process:',
    'local development only), PLATFORM_RUNNERS (default: cores), PLATFORM_ISOLATE_MEMORY_MB (128),',
    'PLATFORM_ISOLATES_PER_RUNNER (32).',
    'Every instance works the shared job queue (webhook deliveries, schedule runs) and ticks the scheduler.',
    `SIGTERM or SIGINT: stops accepting, waits up to ${SHUTDOWN_TIMEOUT_MS / 1000} s for in-flight requests and jobs`,
    '(the rest go back to the queue), exits 0.',
  ].join('\n'),
  options: {
    ...DATA_OPTION,
    port: { type: 'string' },
    host: { type: 'string' },
    examples: { type: 'string' },
    'no-examples': { type: 'boolean' },
  },
  json: false,
  async run(args, io): Promise<CommandResult<RunningServer>> {
    const examples = optionalString(args, 'examples');
    if (examples !== undefined && args.values['no-examples'] === true) {
      throw new CliError(
        'usage',
        'Pass --examples or --no-examples, not both.',
        'Drop one of --examples and --no-examples.',
      );
    }
    const { logger: _oneShotLogger, ...data } = dataOptionsFrom(args, io);
    const running = await serve({
      ...data,
      port: integerOption(args, 'port', { min: 0, max: 65_535 }, DEFAULT_PORT),
      hostname: optionalString(args, 'host'),
      examplesDir:
        args.values['no-examples'] === true
          ? null
          : examples === undefined
            ? undefined
            : resolve(io.cwd, examples),
    });
    return { data: running, text: serveBanner(running, io.cwd) };
  },
};
