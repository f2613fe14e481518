import { createHash } from 'node:crypto';
import type { FrameManifest } from './frameManifest.js';

/** What the host knows when it serves one widget's frame. */
export interface WidgetFrameOptions {
  /** The host's origin, e.g. `https://platform.example` (the frame's own origin is opaque). */
  readonly origin: string;
  /** The version's browser bundle, a path of the host: `/web/bundles/<version>.js`. */
  readonly bundlePath: string;
  /** The widget's id; unused by a tile or an activation form. */
  readonly widgetId: string;
  /** What the frame renders: the widget (the default), the `tile` or the `activation-form` (the bridge's `FrameKind`). */
  readonly kind?: 'widget' | 'tile' | 'activation-form';
  /** The widget's name, the document's title. */
  readonly title: string;
}

/** The frame's HTML and the headers it must be served with. */
export interface WidgetFramePage {
  readonly html: string;
  readonly csp: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The page of one widget frame (or a tile's or activation form's, `kind`): an import map resolving the shared modules to the host's one copy,
 * the frame bootstrap, and (imported by it) the version's browser bundle. Its CSP is the frame's
 * whole sandbox: `sandbox allow-scripts allow-forms` (forms submit events, `form-action 'none'` sends nowhere; an opaque origin even when the page is opened directly),
 * scripts only from `/web/assets/`, the one bundle and the import map's hash, styles from
 * `/web/assets/`, images from `data:`, no connection anywhere, framed only by the host.
 * @example const { html, csp } = widgetFrameHtml(files.frame, { origin, bundlePath, widgetId, title });
 */
export function widgetFrameHtml(frame: FrameManifest, options: WidgetFrameOptions): WidgetFramePage {
  const assets = `${options.origin}/web/assets/`;
  const importMap = JSON.stringify({
    imports: Object.fromEntries(
      Object.entries(frame.imports).map(([name, file]) => [name, `${assets}${file}`]),
    ),
  }).replace(/</g, '\\u003c');
  const hash = createHash('sha256').update(importMap).digest('base64');
  const html = [
    '<!doctype html>',
    `<html lang="en" data-bundle="${escapeHtml(`${options.origin}${options.bundlePath}`)}" data-kind="${options.kind ?? 'widget'}" data-widget="${escapeHtml(options.widgetId)}" data-origin="${escapeHtml(options.origin)}">`,
    '<head><meta charset="utf-8">',
    `<title>${escapeHtml(options.title)}</title>`,
    ...frame.styles.map((file) => `<link rel="stylesheet" href="${escapeHtml(`${assets}${file}`)}">`),
    `<script type="importmap">${importMap}</script>`,
    `<script type="module" src="${escapeHtml(`${assets}${frame.bootstrap}`)}"></script>`,
    '</head><body><main id="widget"></main></body></html>',
  ].join('\n');
  return { html, csp: frameCsp(options.origin, `'sha256-${hash}' ${options.origin}${options.bundlePath}`) };
}

/** A frame that cannot be shown (unknown version or widget): a page saying so, no script at all. */
export function widgetFrameErrorHtml(origin: string, message: string): WidgetFramePage {
  return {
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Widget not found</title></head><body><main><h1>Widget not found</h1><p>${escapeHtml(message)}</p></main></body></html>`,
    csp: frameCsp(origin, "'none'"),
  };
}

function frameCsp(origin: string, scripts: string): string {
  const assets = `${origin}/web/assets/`;
  return [
    "default-src 'none'",
    `script-src ${scripts === "'none'" ? scripts : `${assets} ${scripts}`}`,
    `style-src ${assets}`,
    `font-src ${assets}`,
    'img-src data:',
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    `frame-ancestors ${origin}`,
    'sandbox allow-scripts allow-forms',
  ].join('; ');
}
