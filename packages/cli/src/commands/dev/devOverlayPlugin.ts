// Owns how `platform dev` puts its load-failure overlay into the harness pages: a Vite plugin that
// adds the overlay's module to index.html, serves it, and answers its status request.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import type { Plugin } from 'vite';
import type { PageLoadFailure } from './loadFailure.js';

/** The custom HMR event the dev server sends when the load fails (the failure) or recovers (`null`). */
export const STATUS_EVENT = 'platform:harness-status';
/** Where a page asks for the current failure (`{ failure }`). */
export const STATUS_PATH = '/@platform-dev/status';

const CLIENT_PATH = '/@platform-dev/overlay.js';
const CLIENT_ID = '\0platform-dev-overlay.js';
// This module runs from dist (.js) or, in this repository's checkout, from sources (.ts).
const CLIENT_FILE = fileURLToPath(new URL(`./_overlayClient${import.meta.url.slice(-3)}`, import.meta.url));

/**
 * The overlay in every page, fed by `status` (the harness's current failure, after any load under way).
 * @example plugins: [react(), devOverlayPlugin(() => harness.status())]
 */
export function devOverlayPlugin(status: () => Promise<PageLoadFailure | null>): Plugin {
  return {
    name: 'platform-dev-overlay',
    apply: 'serve',
    transformIndexHtml: () => [
      { tag: 'script', attrs: { type: 'module', src: CLIENT_PATH }, injectTo: 'head-prepend' },
    ],
    resolveId: (id) => (id === CLIENT_PATH ? CLIENT_ID : undefined),
    load(id) {
      if (id !== CLIENT_ID) return undefined;
      return transformSync(readFileSync(CLIENT_FILE, 'utf8'), {
        loader: 'ts',
        format: 'esm',
        target: 'es2022',
      }).code;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] !== STATUS_PATH) return next();
        status().then(
          (failure) => {
            res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
            res.end(JSON.stringify({ failure }));
          },
          (error: unknown) => next(error),
        );
      });
    },
  };
}
