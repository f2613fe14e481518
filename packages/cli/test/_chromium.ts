// Debian's Chromium as the browser tests and `npm run bench -- dev` drive it (no vitest here, so
// the benchmarks can import it too), and a free loopback port.
import { createServer } from 'node:net';
import { type Browser, chromium } from 'playwright-core';

/** The Chromium driven: `PLATFORM_CHROMIUM`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM = process.env.PLATFORM_CHROMIUM ?? '/usr/bin/chromium';

/** Launches headless Chromium with the flags this machine needs, plus `extraArgs`. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/** A loopback port free right now (for a server that must know its URL before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
