import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { type CreateHostOptions, createHost, type Host } from '../src/createHost.js';

/** A host behind a real node server on a loopback port (peer addresses come from the socket). */
export interface NodeServedHost {
  readonly host: Host;
  readonly base: string;
  close(): Promise<void>;
}

/**
 * Creates a host and serves it with `@hono/node-server` on 127.0.0.1, on a free port.
 * @example const served = await serveOverNode({ runtime: 'in-process' }); await fetch(`${served.base}/api/platform/me`);
 */
export async function serveOverNode(options: CreateHostOptions): Promise<NodeServedHost> {
  const host = await createHost(options);
  const server = serve({ fetch: host.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    host,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await host.close();
    },
  };
}

/** A fetch handler served on 127.0.0.1 by `@hono/node-server`. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Serves `fetch` on a free loopback port (for a browser to open, or a handler in front of a host's app).
 * @example const server = await serveOnLoopback(host.app.fetch); await page.goto(`${server.origin}/sign-in`);
 */
export async function serveOnLoopback(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<LoopbackServer> {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
