// The fixture page (test/fixtures/kit.tsx) bundled from the sources with esbuild, the way a host
// bundles @platform/ui, and served to Chromium from memory at KIT_URL (no port, no files).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { BrowserContext } from 'playwright-core';

export const KIT_URL = 'http://kit.test/';

// The page around the kit: a sunken dashboard background with fixed-height tiles in an
// equal-height grid, the layout where collapse, clipping and header heights show.
const PAGE_CSS = `
body { margin: 0; }
.kit-page { min-height: 100vh; padding: 16px; box-sizing: border-box; background: var(--plt-color-surface-sunken);
  color: var(--plt-color-text); color-scheme: var(--plt-color-scheme); font-family: var(--plt-font-family); }
.kit-page h1 { margin: 0 0 8px; font-size: 20px; }
.kit-page h2 { margin: 24px 0 12px; font-size: 16px; }
.kit-card > h3 { margin: 0 0 12px; font-size: 15px; }
.kit-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); grid-auto-rows: 260px; gap: 16px; }
.kit-forms { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 16px; align-items: start; }
.kit-card { padding: 16px; border: 1px solid var(--plt-color-border); border-radius: 10px; background: var(--plt-color-surface); }
.kit-list { margin: 0; padding-left: 20px; }
.kit-hidden { display: none; }
`;

let page: Promise<string> | undefined;

/** The page's HTML: the bundle and the stylesheet inline. Built once per test file. */
export function kitHtml(): Promise<string> {
  page ??= (async () => {
    const result = await build({
      entryPoints: [join(import.meta.dirname, '../fixtures/kit.tsx')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      jsx: 'automatic',
      conditions: ['@platform/source'],
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    });
    const script = result.outputFiles[0]!.text.replaceAll('</script', '<\\/script');
    const css = readFileSync(createRequire(import.meta.url).resolve('@platform/ui/styles.css'), 'utf8');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>@platform/ui kit</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${css}</style><style>${PAGE_CSS}</style></head>
<body><div id="root"></div><script type="module">${script}</script></body></html>`;
  })();
  return page;
}

/** Serves the page at KIT_URL in `context`; every other request is refused. */
export async function serveKit(context: BrowserContext): Promise<void> {
  const html = await kitHtml();
  await context.route('**/*', (route) =>
    route.request().url().startsWith(KIT_URL) && route.request().resourceType() === 'document'
      ? route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html })
      : route.abort(),
  );
}
