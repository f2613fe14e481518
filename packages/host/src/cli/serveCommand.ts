import { relative, resolve } from 'node:path';
import { missingGateProtections } from '../gate/index.js';
import {
  EGRESS_CA_VARIABLE,
  LOOPBACK_EGRESS_VARIABLE,
  LOOPBACK_EGRESS_WARNING,
  loopbackEgressVariable,
} from './_egressSwitches.js';
import { DATA_OPTION, DEFAULT_DATA_DIR, dataOptionsFrom } from './_openHost.js';
import { CliError } from './CliError.js';
import type { Command, CommandResult } from './Command.js';
import { integerOption, optionalString } from './parseArgs.js';
import {
  DEFAULT_HOSTNAME,
  DEFAULT_PORT,
  type RunningServer,
  SHUTDOWN_TIMEOUT_MS,
  serve,
  tryItCurl,
} from './serve.js';

/**
 * The text `serve` prints once it listens. It goes to stdout with the JSON log lines, so it holds
 * no credential and no account id: the demo token, account id and first password are in files
 * (mode 0600) in the data folder, and the `curl` line reads them with `$(cat ...)`.
 */
export function serveBanner(
  running: RunningServer,
  cwd: string,
  gateMissing: readonly string[] = [],
): string {
  const { demo } = running;
  const shortPath = (path: string) => (path.startsWith(cwd) ? relative(cwd, path) || '.' : path);
  const database =
    running.engine === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${shortPath(running.dataDir)}`;
  const examples = running.examples.flatMap((example) =>
    example.integrations.map(
      (entry) => `${entry.slug}@${entry.version}${example.installed ? ' (installed now)' : ''}`,
    ),
  );
  const registryDir = running.host.services.registry?.dir;
  const password =
    demo.passwordFile === undefined
      ? 'its password is in demo-password in the data folder of the first start'
      : `password in ${shortPath(demo.passwordFile)}${demo.password === undefined ? '' : ' (generated on this first start)'}`;
  const { egress } = running;
  return [
    `Platform host listening on ${running.url}`,
    ...(egress.allowLoopback ? ['', `!!! WARNING: ${LOOPBACK_EGRESS_WARNING} !!!`, ''] : []),
    `  database: ${database}`,
    `  runtime:  ${running.runtime}${running.runtime === 'in-process' ? ' (partner code is NOT isolated: local development only)' : ''}`,
    `  egress:   ${egress.allowLoopback ? 'public addresses and LOOPBACK' : 'public addresses only'}${
      egress.caFile === undefined
        ? ''
        : `; ${egress.caCertificates} CA certificate${egress.caCertificates === 1 ? '' : 's'} from ${shortPath(egress.caFile)} added to the default trust`
    }`,
    gateMissing.length === 0
      ? '  gate:     sandboxed (namespaces, nobody, cgroup limits)'
      : `  gate:     MISSING protections (see the README, "Operator: the gate's sandbox"):\n${gateMissing.map((line) => `    - ${line}`).join('\n')}`,
    '',
    `Web app:      ${running.url}/  (sign in as the demo user)`,
    `Demo user:    ${demo.email}  ${password}`,
    `Demo account: ${demo.accountSlug}  (id in ${shortPath(demo.accountFile)})`,
    `Demo token:   in ${shortPath(demo.tokenFile)}  (mode 0600${demo.tokenReissued ? '; reissued' : ''})`,
    `Examples:     ${examples.length === 0 ? 'none' : examples.join(', ')}`,
    `Registry:     ${running.url}/registry/  (@platform/* for npm and pnpm${registryDir === undefined ? ': none' : ` from ${shortPath(registryDir)}`})`,
    '',
    // Paths under the working directory are printed relative to it: the line works from there.
    `Try it${demo.tokenFile.startsWith(cwd) ? ' from this directory' : ''} (${running.tryIt.description}):`,
    `  ${tryItCurl(running.tryIt, shortPath)}`,
    '',
    'Stop with Ctrl-C.',
  ].join('\n');
}

export const serveCommand: Command = {
  path: ['serve'],
  summary: 'Run the host over HTTP (seeds a demo user, account, token and the examples on first start)',
  help: [
    'platform-host serve [--port N] [--host H] [--public-origin URL] [--data DIR] [--examples DIR | --no-examples]',
    '                    [--allow-loopback-egress] [--egress-ca FILE]',
    '',
    `  --port N            port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)`,
    `  --host H            address to listen on (default ${DEFAULT_HOSTNAME})`,
    '  --public-origin URL the origin users reach this host at; every absolute URL starts with it.',
    '                      Required with a --host other than loopback. Also PLATFORM_PUBLIC_ORIGIN.',
    `  --data DIR          data folder (default ${DEFAULT_DATA_DIR}): PGlite, secret.key, and the demo's`,
    '                      demo-token, demo-account and demo-password (mode 0600; also with DATABASE_URL)',
    '  --examples DIR      install the projects in DIR (default: the repo examples/ when run from the repo)',
    '  --no-examples       install no example',
    '  --allow-loopback-egress',
    '                      development and tests only: integrations may reach 127.0.0.0/8 and ::1 (a fake',
    `                      vendor on this machine; egress origins still apply). Also ${LOOPBACK_EGRESS_VARIABLE}=1.`,
    '                      Refused when NODE_ENV is production; printed as a warning at start.',
    '  --egress-ca FILE    PEM file of CA certificates added to (not replacing) the default trust of',
    `                      integrations' HTTPS requests, e.g. a fake vendor's. Also ${EGRESS_CA_VARIABLE}=FILE.`,
    '',
    'Environment: DATABASE_URL (PostgreSQL instead of PGlite), PLATFORM_SECRET_KEY (key for secrets',
    'at rest; default generated into DIR/secret.key), LOG_LEVEL (default info); job workers:',
    'PLATFORM_JOB_CONCURRENCY (default 32), PLATFORM_JOB_PER_INTEGRATION (16), PLATFORM_JOB_CLAIM_AHEAD',
    '(jobs claimed to start as slots free; default the per-integration limit, 0 for none),',
    'PLATFORM_JOB_LEASE_MS (30000).',
    'Partner code: PLATFORM_RUNTIME (isolated, the default: V8 isolates in runner processes; in-process:',
    'local development only), PLATFORM_RUNNERS (default: cores - 1, at least 1),',
    'PLATFORM_ISOLATE_MEMORY_MB (128), PLATFORM_ISOLATES_PER_RUNNER (32), PLATFORM_LEFTOVER_CPU_MS (100:',
    'CPU an isolate may use outside its calls).',
    'Partner logs, per call: PLATFORM_LOG_LINES_PER_CALL (200), PLATFORM_LOG_BYTES_PER_CALL (65536); per',
    'integration a minute: PLATFORM_LOG_LINES_PER_MINUTE (2000), PLATFORM_LOG_BYTES_PER_MINUTE (1048576);',
    'PLATFORM_LOG_LINE_BYTES (8192) per line. Security events are log lines with event: "security".',
    'PLATFORM_TRUSTED_PROXIES: reverse proxies (addresses, CIDR ranges, comma-separated) whose',
    'X-Forwarded-For names the client for per-address limits; unset: the connection is the client.',
    'Every instance works the shared job queue (webhook deliveries, schedule runs) and ticks the scheduler.',
    'Package registry: /registry/ serves @platform/* from PLATFORM_REGISTRY_DIR (a folder of npm pack tarballs),',
    'else DIR/registry; run from a checkout, the first request packs the workspace packages into DIR/registry.',
    'With PGlite, `admin` commands and `install` run inside this serve while it runs, through its admin',
    'channel DIR/admin.sock (mode 0600, local only, removed at shutdown; one left by a killed serve is',
    'replaced at the next start); `migrate` is refused while it serves (serve migrates at start).',
    `SIGTERM or SIGINT: stops accepting, waits up to ${SHUTDOWN_TIMEOUT_MS / 1000} s for in-flight requests and jobs`,
    '(the rest go back to the queue), exits 0.',
  ].join('\n'),
  options: {
    ...DATA_OPTION,
    port: { type: 'string' },
    host: { type: 'string' },
    'public-origin': { type: 'string' },
    examples: { type: 'string' },
    'no-examples': { type: 'boolean' },
    'allow-loopback-egress': { type: 'boolean' },
    'egress-ca': { type: 'string' },
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
    const egressCa = optionalString(args, 'egress-ca') ?? (io.env[EGRESS_CA_VARIABLE] || undefined);
    const running = await serve({
      ...data,
      port: integerOption(args, 'port', { min: 0, max: 65_535 }, DEFAULT_PORT),
      hostname: optionalString(args, 'host'),
      publicOrigin: optionalString(args, 'public-origin') ?? (io.env.PLATFORM_PUBLIC_ORIGIN || undefined),
      examplesDir:
        args.values['no-examples'] === true
          ? null
          : examples === undefined
            ? undefined
            : resolve(io.cwd, examples),
      allowLoopbackEgress: args.values['allow-loopback-egress'] === true || loopbackEgressVariable(io.env),
      egressCaFile: egressCa === undefined ? undefined : resolve(io.cwd, egressCa),
    });
    return { data: running, text: serveBanner(running, io.cwd, await missingGateProtections()) };
  },
};
