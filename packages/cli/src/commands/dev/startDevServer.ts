import { existsSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { join, relative, sep } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { CliError } from '../../cli/CliError.js';
import type { Style } from '../../cli/terminal.js';
import { MANIFEST_FILE, readManifest } from '../../project/readManifest.js';
import { CLI_VERSION } from '../../version.js';
import { createDevHarness, type DevHarness, EXPOSE_VARIABLE, HARNESS_CONFIG_FILE } from './devHarness.js';
import { devOverlayPlugin, STATUS_EVENT } from './devOverlayPlugin.js';
import { isLoopbackAddress, isLoopbackHost } from './isLoopbackAddress.js';
import { checkShellContract, findHarnessPackage, SHELL_CONTRACT } from './shellContract.js';
import { shellViteConfig } from './shellViteConfig.js';
import { writeShell } from './writeShell.js';

/** What `startDevServer` needs. */
export interface DevOptions {
  /** The project root (the folder holding platform.json). */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The address to listen on (default `127.0.0.1`); any other than loopback exposes the harness API. */
  readonly host: string;
  /** The port (default 5173); `0` picks a free one. */
  readonly port: number;
  /** The server's log (stderr): warnings, reloads, findings, one line per API request. */
  readonly log: (text: string) => void;
  /** Styles for the log. */
  readonly style: Style;
  /** Resolve workspace packages to their sources (the CLI itself runs from this repository's sources). */
  readonly sourceCondition: boolean;
}

/** What `platform dev` reports once it serves (`data` of its JSON line). */
export interface DevReport {
  /** Where the harness is served, such as `http://127.0.0.1:5173/`. */
  readonly url: string;
  /** The generated Vite shell (`<project>/.platform/shell`). */
  readonly shellDir: string;
  /** The project's `@platform/harness`. */
  readonly harness: { readonly version: string; readonly shellContract: number };
  /** Whether the shell was (re)generated on this start; false when it was current. */
  readonly shellWritten: boolean;
}

/** A running `platform dev`. */
export interface DevServer {
  readonly report: DevReport;
  /** Settles when the server fails after it started. */
  readonly failed: Promise<never>;
  /** Closes Vite (watcher, HMR socket) and the server. */
  close(): Promise<void>;
}

/** The path prefix the harness API handlers answer; everything else is the Vite shell. */
export const API_PREFIX = '/api/integrations/';

/** The harness's MCP server (the host's `/mcp` on loopback), also answered by the harness handlers. */
export const MCP_PATH = '/mcp';

// Whether the harness handlers answer this request path (the API or `/mcp`, with any query).
function isHarnessPath(url: string | undefined): boolean {
  if (url === undefined) return false;
  return url.startsWith(API_PREFIX) || url === MCP_PATH || url.startsWith(`${MCP_PATH}?`);
}

/**
 * Checks the project's harness (installed, same shell contract), writes the shell when needed and
 * serves it from one Node http server: Vite in middleware mode for the pages, the harness API
 * handlers on the project's `harness.config.ts` under `/api/integrations/` and at `/mcp`. A save of the config or
 * of anything it imports reloads it; a failing config is reported and retried on the next save.
 */
export async function startDevServer(options: DevOptions): Promise<DevServer> {
  const projectDir = options.cwd;
  const { manifest } = readManifest(projectDir);
  const harness = findHarnessPackage(projectDir, options.env);
  checkShellContract(harness, projectDir, options.env);
  const shell = writeShell(projectDir, {
    cli: CLI_VERSION,
    harness: harness.version,
    shellContract: SHELL_CONTRACT,
  });

  let env = options.env;
  if (!isLoopbackAddress(options.host)) {
    options.log(
      `${options.style.yellow('Warning:')} --host ${options.host} serves the harness beyond this machine: its API runs your integrations' actions and, in live mode, reaches vendors with your local credentials. ${EXPOSE_VARIABLE}=1 is set so that it answers other hosts.\n`,
    );
    // The harness reads it from the environment; code loaded into this process sees it too.
    process.env[EXPOSE_VARIABLE] = '1';
    env = { ...env, [EXPOSE_VARIABLE]: '1' };
  }

  // Requests may come as soon as the port is open (a tab left from the last run): the pages are
  // served at once, the API and the overlay's status once the harness has loaded.
  let loaded: (harness: DevHarness) => void = () => undefined;
  const harnessLoaded = new Promise<DevHarness>((resolve) => {
    loaded = resolve;
  });
  const httpServer = createServer();
  const bare = options.host.replace(/^\[(.*)\]$/, '$1');
  const vite = await createViteServer(
    shellViteConfig({
      projectDir,
      shellDir: shell.dir,
      harnessDir: harness.dir,
      httpServer,
      sourceCondition: options.sourceCondition,
      plugins: [devOverlayPlugin(async () => (await harnessLoaded).status())],
      ...(isIP(bare) === 0 && bare !== 'localhost' ? { hostName: bare } : {}),
    }),
  );
  // In middleware mode nothing starts Vite's warm-up: transform the shell's entry now, so its
  // dependencies are bundled while the harness loads rather than when the first page asks.
  void vite.warmupRequest('/main.tsx').catch(() => undefined);
  const api = getRequestListener(async (request) => (await harnessLoaded).fetch(request), {
    overrideGlobalObjects: false,
  });
  const exposed = env[EXPOSE_VARIABLE] === '1';
  httpServer.on('request', (req, res) => {
    if (isHarnessPath(req.url)) void api(req, res);
    else if (!exposed && !isLoopbackHost(req.headers.host)) refuseForeignHost(req.headers.host, res);
    else vite.middlewares(req, res);
  });
  try {
    const address = await listen(httpServer, options.port, bare);
    const devHarness = await createDevHarness({
      vite,
      projectDir,
      env,
      log: options.log,
      style: options.style,
      // Every open page shows the failure, or reloads once the harness loads again.
      onStatus: (failure) => vite.environments.client.hot.send(STATUS_EVENT, failure),
    });
    loaded(devHarness);
    watchProject(
      vite,
      projectDir,
      [MANIFEST_FILE, HARNESS_CONFIG_FILE, ...manifest.integrations.map((i) => i.entry)],
      devHarness,
    );

    const failed = new Promise<never>((_, reject) => {
      httpServer.on('error', (error) =>
        reject(
          new CliError('internal', `The dev server failed: ${error.message}`, {
            hint: 'Run `platform dev` again.',
            cause: error,
          }),
        ),
      );
    });
    failed.catch(() => undefined);
    return {
      report: {
        url: `http://${urlHost(bare)}:${address}/`,
        shellDir: shell.dir,
        harness: { version: harness.version, shellContract: SHELL_CONTRACT },
        shellWritten: shell.written,
      },
      failed,
      close: () => close(vite, httpServer),
    };
  } catch (error) {
    await close(vite, httpServer);
    throw error;
  }
}

// Files outside the shell folder are watched once Vite loads them; the config, the manifest and
// the entries' folders are watched from the start, so a save fixes even a config that never loaded.
function watchProject(
  vite: ViteDevServer,
  projectDir: string,
  files: readonly string[],
  harness: DevHarness,
): void {
  const watched = files.map((file) => join(projectDir, file)).filter((path) => existsSync(path));
  const srcDir = join(projectDir, 'src');
  vite.watcher.add(existsSync(srcDir) ? [...watched, srcDir] : watched);
  const graph = vite.environments.ssr.moduleGraph;
  const onChange = (file: string) => {
    const inProject = relative(projectDir, file);
    if (
      inProject.startsWith('..') ||
      inProject.split(sep).some((part) => part === 'node_modules' || part === '.platform')
    ) {
      return;
    }
    const modules = graph.getModulesByFile(file);
    if (!harness.failed && (modules === undefined || modules.size === 0) && !files.includes(inProject))
      return;
    // Invalidated here rather than waiting for Vite's own handler, which runs its plugins first.
    if (harness.failed) graph.invalidateAll();
    else for (const module of modules ?? []) graph.invalidateModule(module);
    void harness.reload();
  };
  vite.watcher.on('change', onChange);
  vite.watcher.on('add', onChange);
  vite.watcher.on('unlink', onChange);
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(listenError(error, port, host));
    };
    const onListening = () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function listenError(error: NodeJS.ErrnoException, port: number, host: string): CliError {
  if (error.code === 'EADDRINUSE') {
    return new CliError('port_in_use', `Port ${port} on ${host} is already in use.`, {
      hint: `Pass another port with --port <n> (--port 0 picks a free one), or stop what listens on ${port}.`,
      cause: error,
    });
  }
  if (error.code === 'EACCES') {
    return new CliError('port_in_use', `Port ${port} on ${host} may not be used by this user.`, {
      hint: 'Pass a port above 1023 with --port <n> (--port 0 picks a free one).',
      cause: error,
    });
  }
  return new CliError('usage', `Cannot listen on ${host}:${port}: ${error.message}`, {
    hint: 'Pass an address of this machine with --host <host> (default 127.0.0.1).',
    cause: error,
  });
}

// A wildcard address is reachable on loopback; IPv6 goes in brackets.
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return isIP(host) === 6 ? `[${host}]` : host;
}

async function close(vite: ViteDevServer, server: Server): Promise<void> {
  await vite.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

// A page request under another name than loopback (DNS rebinding, a LAN neighbour): refused
// before Vite sees it, with the fix in this command's own terms.
function refuseForeignHost(host: string | undefined, res: ServerResponse): void {
  res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    `The harness answers loopback hosts only (localhost, 127.0.0.0/8, [::1]), not "${host ?? ''}". To serve it on another address, start it with \`platform dev --host <address>\`.\n`,
  );
}
