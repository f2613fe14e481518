import { readWebAppFiles, type WebAppFiles, widgetFrameErrorHtml, widgetFrameHtml } from '@platform/web';
import { type Context, Hono } from 'hono';
import type { HostServices } from '../HostServices.js';
import { findBrowserBundle } from '../store/integrations.js';
import { hostOrigin } from './_auth.js';

/**
 * Widget frames (issue 48): each widget of the dashboard is an `<iframe sandbox="allow-scripts allow-forms">`
 * of `/web/frames/<version>/<widget>`, a page whose CSP sandboxes it (opaque origin) and lets it
 * load only the host's frame runtime and that version's browser bundle, `/web/bundles/<version>.js`.
 * Neither needs a session: the frame has an opaque origin, so the browser sends it no cookie, and
 * neither carries anything but the partner's public widget code. A version's tile and activation
 * form (`platform.json` `tile`, `activationForm`) are frames of the same page and CSP at
 * `/web/frames/<version>/-/tile` and `/-/activation-form`. Only versions the gate passed (dev,
 * gated, live) are served.
 * @example app.route('/', widgetFrameRoutes(services));
 */
export function widgetFrameRoutes(services: HostServices, options: { dir?: string } = {}): Hono {
  const app = new Hono();
  let files: WebAppFiles | undefined;
  const built = () => {
    files ??= readWebAppFiles(options.dir);
    return files;
  };

  app.get('/web/bundles/:file', async (c) => {
    const file = c.req.param('file');
    const versionId = file.endsWith('.js') ? file.slice(0, -3) : undefined;
    const version = versionId === undefined ? undefined : await findBrowserBundle(services.db, versionId);
    if (version?.code === undefined) {
      return c.text(`No browser bundle ${file}: the version is unknown or has no widgets.`, 404, {
        'Access-Control-Allow-Origin': '*',
        'X-Content-Type-Options': 'nosniff',
      });
    }
    return c.body(version.code, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      // A version's code never changes: its id names it.
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      // Imported by a frame whose origin is opaque: a cross-origin module script.
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
  });

  // A tile or an activation form: `-` is no widget id (ids are kebab-case words), so the two never meet.
  app.get('/web/frames/:versionId/-/:kind', async (c) => {
    const origin = hostOrigin(services, c);
    const { versionId, kind } = c.req.param();
    const frame = built()?.frame;
    if (frame === undefined) {
      return framePage(
        c,
        503,
        widgetFrameErrorHtml(origin, 'The web app is not built: run `npm run build` and reload.'),
      );
    }
    const version = await findBrowserBundle(services.db, versionId);
    const field = kind === 'tile' ? 'tile' : kind === 'activation-form' ? 'activationForm' : undefined;
    if (version === undefined || field === undefined || !version[field] || version.code === undefined) {
      const message =
        version === undefined
          ? `No version "${versionId}" serves frames on this host; the marketplace links each tile to its integration's live version.`
          : field === undefined
            ? `There is no frame "${kind}": a version's frames are its widgets, "-/tile" and "-/activation-form".`
            : !version[field]
              ? `Version "${versionId}" of "${version.slug}" has no ${kind}: its platform.json names no "${field}".`
              : `Version "${versionId}" of "${version.slug}" has no browser bundle to draw its ${kind} from.`;
      return framePage(c, 404, widgetFrameErrorHtml(origin, message));
    }
    return framePage(
      c,
      200,
      widgetFrameHtml(frame, {
        origin,
        bundlePath: `/web/bundles/${versionId}.js`,
        widgetId: '',
        kind: field === 'tile' ? 'tile' : 'activation-form',
        title: `${version.name} ${field === 'tile' ? 'tile' : 'activation form'}`,
      }),
    );
  });

  app.get('/web/frames/:versionId/:widgetId', async (c) => {
    const origin = hostOrigin(services, c);
    const { versionId, widgetId } = c.req.param();
    const frame = built()?.frame;
    if (frame === undefined) {
      return framePage(
        c,
        503,
        widgetFrameErrorHtml(origin, 'The web app is not built: run `npm run build` and reload.'),
      );
    }
    const version = await findBrowserBundle(services.db, versionId);
    const widget = version?.widgets.find((candidate) => candidate.id === widgetId);
    if (version === undefined || widget === undefined || version.code === undefined) {
      const message =
        version === undefined
          ? `No version "${versionId}" serves widgets on this host; the dashboard links each widget to its integration's version.`
          : `Version "${versionId}" of "${version.slug}" declares no widget "${widgetId}"${version.widgets.length === 0 ? '' : `; its widgets are ${version.widgets.map((w) => `"${w.id}"`).join(', ')}`}.`;
      return framePage(c, 404, widgetFrameErrorHtml(origin, message));
    }
    return framePage(
      c,
      200,
      widgetFrameHtml(frame, {
        origin,
        bundlePath: `/web/bundles/${versionId}.js`,
        widgetId,
        title: widget.name,
      }),
    );
  });
  return app;
}

function framePage(c: Context, status: 200 | 404 | 503, page: { html: string; csp: string }): Response {
  c.header('Content-Security-Policy', page.csp);
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('Cache-Control', 'no-store');
  return c.html(page.html, status);
}
