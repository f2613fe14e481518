import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as serveNode } from '@hono/node-server';
import pino from 'pino';
import { createHost, type Host } from '../createHost.js';
import { LOCAL_SOURCE_SLUG } from '../install/installProject.js';
import { packCheckoutOnDemand } from '../registry/packWorkspace.js';
import { addSeat, addSourceAccount, findActivation, findSource, liveVersion } from '../store/integrations.js';
import { activateIntegration } from './_activate.js';
import { type AdminChannel, openAdminChannel } from './_adminChannel.js';
import { type EgressSwitches, egressSwitches, LOOPBACK_EGRESS_WARNING } from './_egressSwitches.js';
import { type ExampleInstall, findExampleProjects, installExample, repoExamplesDir } from './_examples.js';
import { claimData, type DataOptions } from './_openHost.js';
import { type DemoSeed, seedDemo } from './_seedDemo.js';
import { CliError } from './CliError.js';

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOSTNAME = '127.0.0.1';
export const SHUTDOWN_TIMEOUT_MS = 10_000;

export interface ServeOptions extends DataOptions {
  /** Default 8787; 0 picks a free port. */
  readonly port?: number | undefined;
  /** Default 127.0.0.1. Any other than a loopback address needs `publicOrigin`. */
  readonly hostname?: string | undefined;
  /**
   * The origin users reach this host at (`https://platform.example.com`): every absolute URL the
   * host writes starts with it. Default, on a loopback address only: the address it listens on.
   */
  readonly publicOrigin?: string | undefined;
  /** Example projects to install: a folder of projects, `null` for none, default the repo's `examples/`. */
  readonly examplesDir?: string | null | undefined;
  /** How long in-flight requests may take to finish after a stop is asked for. */
  readonly shutdownTimeoutMs?: number | undefined;
  /**
   * Development switch: integrations may reach loopback (127.0.0.0/8, ::1), e.g. a fake vendor.
   * Refused when `NODE_ENV` is `production`; logged as a warning at start.
   */
  readonly allowLoopbackEgress?: boolean | undefined;
  /** A PEM file of CA certificates added to the default trust of integrations' outbound requests. */
  readonly egressCaFile?: string | undefined;
}

const positive = (value: string | undefined) => {
  const number = Number(value);
  return value !== undefined && Number.isInteger(number) && number > 0 ? number : undefined;
};

const nonNegative = (value: string | undefined) => (value?.trim() === '0' ? 0 : positive(value));

/**
 * Worker tuning from the environment: PLATFORM_JOB_CONCURRENCY, PLATFORM_JOB_PER_INTEGRATION,
 * PLATFORM_JOB_CLAIM_AHEAD (0 turns claiming ahead off), PLATFORM_JOB_LEASE_MS.
 */
function eventOptions(env: Record<string, string | undefined>) {
  const concurrency = positive(env.PLATFORM_JOB_CONCURRENCY);
  const perIntegration = positive(env.PLATFORM_JOB_PER_INTEGRATION);
  const claimAhead = nonNegative(env.PLATFORM_JOB_CLAIM_AHEAD);
  const leaseMs = positive(env.PLATFORM_JOB_LEASE_MS);
  return {
    worker: {
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(perIntegration === undefined ? {} : { perIntegration }),
      ...(claimAhead === undefined ? {} : { claimAhead }),
      ...(leaseMs === undefined ? {} : { leaseMs }),
    },
  };
}

/**
 * A request that works on a fresh host (it needs no vendor connection), printed as `curl`. The
 * printed line reads the token and the account id from their files, so neither is in the output.
 */
export interface TryIt {
  readonly description: string;
  readonly method: 'GET' | 'POST';
  /** With the demo account id: for code; the printed line reads the id from `files.account`. */
  readonly url: string;
  /** With the demo token: for code; the printed line reads it from `files.token`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** The files the printed line reads: the demo token, and the account id when the URL needs it. */
  readonly files: { readonly token: string; readonly account: string | undefined };
  /** The line with absolute paths, which works from any directory. */
  readonly curl: string;
}

// Paths as a POSIX shell word: plain when safe, else single-quoted.
const shellWord = (path: string) =>
  /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;

/**
 * The `curl` line of a {@link TryIt}, with the file paths as `display` shows them (the banner makes
 * them relative to the working directory). Token and account id are read with `$(cat ...)` in
 * double quotes; the URL and body contain no `$`, backquote or quote of their own.
 * @example tryItCurl(running.tryIt, (file) => relative(process.cwd(), file));
 */
export function tryItCurl(tryIt: TryIt, display: (file: string) => string = (file) => file): string {
  const cat = (file: string) => `$(cat ${shellWord(display(file))})`;
  const url =
    tryIt.files.account === undefined
      ? tryIt.url
      : `${tryIt.url.slice(0, tryIt.url.indexOf('?'))}?accountId=${cat(tryIt.files.account)}`;
  return [
    'curl -sS',
    ...(tryIt.method === 'GET' ? [] : [`-X ${tryIt.method}`]),
    `"${url}"`,
    `-H "Authorization: Bearer ${cat(tryIt.files.token)}"`,
    ...Object.entries(tryIt.headers)
      .filter(([name]) => name !== 'Authorization')
      .map(([name, value]) => `-H '${name}: ${value}'`),
    // Single quotes keep the shell away from the JSON; it contains none.
    ...(tryIt.body === undefined ? [] : [`-d '${tryIt.body}'`]),
  ].join(' ');
}

export interface RunningServer {
  readonly url: string;
  readonly engine: 'pglite' | 'postgres';
  readonly dataDir: string;
  readonly runtime: 'isolated' | 'in-process';
  readonly demo: DemoSeed;
  readonly examples: readonly ExampleInstall[];
  readonly tryIt: TryIt;
  /** Loopback egress and the extra CA, as the banner shows them. */
  readonly egress: EgressSwitches;
  readonly host: Host;
  /** Stops accepting, lets in-flight requests finish (bounded), closes runtime and database. */
  close(): Promise<void>;
}

// Example actions that work offline, tried in order; without one the banner calls `/api/platform/me`.
const DEMO_CALLS = [
  {
    slug: 'acme-notes',
    action: 'add-note',
    body: { title: 'Hello from curl' },
    what: 'adds a note to the demo account',
  },
];

function tryItFor(baseUrl: string, demo: DemoSeed, activeSlugs: ReadonlySet<string>): TryIt {
  const call = DEMO_CALLS.find((candidate) => activeSlugs.has(candidate.slug));
  const auth = { Authorization: `Bearer ${demo.token}` };
  const request =
    call === undefined
      ? {
          description: 'shows the demo user and accounts',
          method: 'GET' as const,
          url: `${baseUrl}/api/platform/me`,
          headers: auth,
          body: undefined,
          files: { token: demo.tokenFile, account: undefined },
        }
      : {
          description: `${call.slug} ${call.action}: ${call.what}`,
          method: 'POST' as const,
          url: `${baseUrl}/api/integrations/${call.slug}/actions/${call.action}?accountId=${encodeURIComponent(demo.accountId)}`,
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(call.body),
          files: { token: demo.tokenFile, account: demo.accountFile },
        };
  return { ...request, curl: tryItCurl({ ...request, curl: '' }) };
}

function listen(
  host: Host,
  port: number,
  hostname: string,
): Promise<{ server: Server; address: AddressInfo }> {
  return new Promise((resolveListen, reject) => {
    const server = serveNode({ fetch: host.app.fetch, port, hostname }, (address) =>
      resolveListen({ server: server as Server, address }),
    ) as Server;
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new CliError(
              'refused',
              `Port ${port} on ${hostname} is already in use.`,
              'Stop what listens there, or pass another --port (0 picks a free one).',
              {
                cause: error,
              },
            )
          : error,
      );
    });
  });
}

/** Stops accepting; idle keep-alive sockets close now, busy ones when their response is done or at the bound. */
function stopServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolveStop) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(force);
      resolveStop();
    });
    server.closeIdleConnections();
  });
}

/**
 * Runs the host over HTTP: opens (and migrates) the database, seeds the demo user, account and
 * token on the first start, installs and activates the example integrations, and listens.
 * @example const running = await serve({ dataDir: '.platform-host', port: 0 }); ...; await running.close();
 */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '::1', '[::1]']);

/** Whether `hostname` binds loopback only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_HOSTNAMES.has(hostname.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The public origin to serve with: `configured` checked (an http(s) origin, nothing after it),
 * required when binding anything but loopback, where a request's Host header would otherwise be
 * the only guess at the host's address.
 */
export function checkPublicOrigin(hostname: string, configured: string | undefined): string | undefined {
  if (configured === undefined) {
    if (isLoopbackHostname(hostname)) return undefined;
    throw new CliError(
      'usage',
      `Serving on ${hostname} needs --public-origin, the address users reach this host at.`,
      "Pass --public-origin https://<the host name users open> (or set PLATFORM_PUBLIC_ORIGIN); absolute URLs are never taken from a request's Host header.",
    );
  }
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    throw new CliError(
      'usage',
      `--public-origin ${configured} is not a URL.`,
      'Pass an origin such as https://platform.example.com.',
    );
  }
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.origin !== configured.replace(/\/+$/, '')
  ) {
    throw new CliError(
      'usage',
      `--public-origin ${configured} is not an origin (http or https, a host, an optional port, nothing after).`,
      `Pass ${url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : 'https://platform.example.com'}.`,
    );
  }
  return url.origin;
}

export async function serve(options: ServeOptions): Promise<RunningServer> {
  const logger =
    options.logger ??
    pino({
      level: options.env?.LOG_LEVEL ?? 'info',
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    });
  if (typeof options.examplesDir === 'string' && !existsSync(options.examplesDir)) {
    throw new CliError(
      'not_found',
      `No examples folder ${options.examplesDir}.`,
      'Pass --examples with a folder of projects (each with a platform.json), or --no-examples.',
    );
  }
  const hostname = options.hostname ?? DEFAULT_HOSTNAME;
  const publicOrigin = checkPublicOrigin(hostname, options.publicOrigin);
  // Checked and read before the data folder is claimed: a refused switch or bad CA file changes nothing.
  const { egress, switches } = await egressSwitches({
    allowLoopback: options.allowLoopbackEgress === true,
    caFile: options.egressCaFile,
    env: { NODE_ENV: options.env?.NODE_ENV ?? process.env.NODE_ENV },
  });
  const release = await claimData(options, 'serve');
  let host: Host | undefined;
  let channel: AdminChannel | undefined;
  try {
    host = await createHost({
      dataDir: options.dataDir,
      databaseUrl: options.databaseUrl,
      env: { ...(options.env ?? {}) },
      logger,
      events: eventOptions(options.env ?? {}),
      egress,
      publicOrigin,
    });
    if (switches.allowLoopback) logger.warn({ egress: 'loopback' }, LOOPBACK_EGRESS_WARNING);
    if (switches.caFile !== undefined) {
      logger.info(
        { egressCa: switches.caFile, certificates: switches.caCertificates },
        'egress CA certificates added to the default trust',
      );
    }
    // From a checkout, /registry/ packs this workspace's @platform packages on first use.
    packCheckoutOnDemand(host.services.registry, options.dataDir, logger);
    // PGlite is this process's alone: admin commands and installs reach it through the channel.
    // PostgreSQL needs none: they open the database themselves.
    if (host.db.engine === 'pglite')
      channel = await openAdminChannel({ dataDir: options.dataDir, host, logger });
    if (options.databaseUrl && !options.env?.PLATFORM_SECRET_KEY) {
      logger.warn(
        `PLATFORM_SECRET_KEY is unset: secrets are encrypted with ${options.dataDir}/secret.key; every instance sharing this database needs the same key, so set PLATFORM_SECRET_KEY`,
      );
    }
    const demo = await seedDemo(host, options.dataDir);
    const examplesDir =
      options.examplesDir === undefined ? repoExamplesDir() : (options.examplesDir ?? undefined);
    const examples: ExampleInstall[] = [];
    for (const project of examplesDir === undefined ? [] : await findExampleProjects(examplesDir)) {
      try {
        examples.push(await installExample(host, project));
      } catch (error) {
        // A broken example must not keep the host from starting; its error is in the log.
        logger.error({ err: error, project }, 'installing an example failed');
      }
    }
    const local = await findSource(host.db, LOCAL_SOURCE_SLUG);
    if (demo.created && local !== undefined) {
      await addSourceAccount(host.db, local.id, demo.accountId);
      await addSeat(host.db, local.id, demo.userId, 'owner');
    }
    const active = new Set<string>();
    for (const integration of examples.flatMap((example) => example.integrations)) {
      const version = await liveVersion(host.db, integration.slug);
      if (version === undefined) continue;
      // Only a first install activates: an example the demo account deactivated stays off. The
      // source the example went to serves the demo account first (activation requires it).
      if (integration.firstInstall) {
        await addSourceAccount(host.db, version.sourceId, demo.accountId);
        await activateIntegration(host, { version, accountId: demo.accountId, userId: demo.userId });
      }
      if ((await findActivation(host.db, integration.slug, demo.accountId)) !== undefined)
        active.add(integration.slug);
    }

    const { server, address } = await listen(host, options.port ?? DEFAULT_PORT, hostname);
    const shown = ['0.0.0.0', '::'].includes(address.address) ? '127.0.0.1' : address.address;
    const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${address.port}`;
    logger.info({ url, engine: host.db.engine }, 'listening');
    host.listeningAt(url);
    // Webhook deliveries and schedule runs: every instance works the shared queue and ticks.
    host.events.start();
    const opened = host;
    let closing: Promise<void> | undefined;
    return {
      url,
      engine: host.db.engine,
      dataDir: options.dataDir,
      runtime: host.services.runtime.isolated ? 'isolated' : 'in-process',
      demo,
      examples,
      tryIt: tryItFor(url, demo, active),
      egress: switches,
      host,
      close() {
        closing ??= (async () => {
          try {
            const bound = options.shutdownTimeoutMs ?? SHUTDOWN_TIMEOUT_MS;
            // Admin commands in flight get the same bound as requests; new ones find no socket.
            await Promise.all([stopServer(server, bound), channel?.close(bound)]);
            // Jobs in flight get the same bound; the rest go back to the queue for other instances.
            const handedBack = await opened.events.stop(bound);
            if (handedBack > 0)
              logger.warn({ jobs: handedBack }, 'jobs handed back to the queue at shutdown');
            await opened.close();
          } finally {
            await release();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await channel?.close(0).catch(() => {});
    await host?.close().catch(() => {});
    await release();
    throw error;
  }
}
