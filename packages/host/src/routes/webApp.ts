import { readWebAppFiles, type WebAppFiles } from '@platform/web';
import { type Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { SESSION_COOKIE } from './_auth.js';

/**
 * The Content-Security-Policy of every page of the web app: its own scripts and styles only (no
 * inline code), requests to this origin only, widget frames from this origin only (each one a
 * sandboxed iframe without `allow-same-origin`, so partner code gets an opaque origin), and never
 * framed itself.
 */
export const WEB_APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The pages of the web app: each serves the same shell, the app routes in the browser. */
const PAGES = ['/', '/sign-in', '/marketplace', '/marketplace/:slug', '/settings', '/oauth/consent'] as const;

/** Pages a signed-out browser may see; the others send it to `/sign-in?next=<where it was>`. */
const PUBLIC_PAGES = new Set(['/sign-in']);

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Platform</title></head>
<body><main><h1>The web app is not built</h1><p>This host runs from a checkout whose web app has not been built.
Run <code>npm run build</code> (or <code>npm run build -w @platform/web</code>) and reload.</p></main></body></html>`;

function pageHeaders(c: Context): void {
  c.header('Content-Security-Policy', WEB_APP_CSP);
  c.header('X-Frame-Options', 'DENY');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'same-origin');
  c.header('Cache-Control', 'no-store');
}

/**
 * The end user's web app (`@platform/web`, built to static files): the shell page on every page
 * route, the hashed assets under `/web/assets/` as immutable. Nothing is compiled per request;
 * a host whose web app is not built answers its pages 503 with how to build it.
 * @example app.route('/', webAppRoutes());
 */
export function webAppRoutes(options: { dir?: string } = {}): Hono {
  const app = new Hono();
  let files: WebAppFiles | undefined;
  const built = () => {
    files ??= readWebAppFiles(options.dir);
    return files;
  };

  app.get('/web/assets/:name', (c) => {
    const asset = built()?.assets.get(c.req.param('name'));
    if (asset === undefined) return c.notFound();
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': asset.contentType,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      // Widget frames have an opaque origin: their module scripts are cross-origin requests.
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
  });

  for (const path of PAGES) {
    app.get(path, (c) => {
      pageHeaders(c);
      const shell = built();
      if (shell === undefined) return c.html(NOT_BUILT, 503);
      const url = new URL(c.req.url);
      if (!PUBLIC_PAGES.has(url.pathname) && getCookie(c, SESSION_COOKIE) === undefined) {
        return c.redirect(`/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`, 302);
      }
      return c.html(shell.shell);
    });
  }
  return app;
}
