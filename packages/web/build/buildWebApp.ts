import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { buildFrameRuntime } from './buildFrameRuntime.js';

const PACKAGE_DIR = join(import.meta.dirname, '..');
const OUT_DIR = join(PACKAGE_DIR, 'dist', 'app');
const STAMP = join(OUT_DIR, '.built');
// What the app's build reads besides its own sources: the UI kit, the hooks and the wire contract.
const INPUTS = [
  join(PACKAGE_DIR, 'src', 'app'),
  join(PACKAGE_DIR, 'src', 'frame'),
  join(PACKAGE_DIR, 'src', 'bridge'),
  join(PACKAGE_DIR, 'src', 'node', 'frameManifest.ts'),
  join(PACKAGE_DIR, 'build'),
  join(PACKAGE_DIR, '..', 'ui', 'src'),
  join(PACKAGE_DIR, '..', 'sdk', 'src', 'hooks'),
  join(PACKAGE_DIR, '..', 'wire', 'src'),
];

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

/** Whether `dist/app` is missing or older than a file it is built from. */
export function webAppStale(): boolean {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return INPUTS.some((input) => existsSync(input) && newestChange(input) > built);
}

/**
 * Builds the web app with Vite into `dist/app`: `index.html` (the shell every page route serves)
 * and content-hashed assets under `assets/`, served at `/web/assets/` as immutable, then the widget
 * frames' runtime (`buildFrameRuntime`, with `frame-manifest.json`). Built from the
 * packages' sources (`@platform/source`), so no other package needs building first.
 * @example await buildWebApp({ ifStale: true });
 */
export async function buildWebApp(options: { ifStale?: boolean; quiet?: boolean } = {}): Promise<boolean> {
  if (options.ifStale && !webAppStale()) return false;
  await build({
    configFile: false,
    root: join(PACKAGE_DIR, 'src', 'app'),
    base: '/web/',
    logLevel: options.quiet ? 'warn' : 'info',
    plugins: [react()],
    resolve: { conditions: ['@platform/source', 'browser', 'module', 'import', 'default'] },
    build: {
      outDir: OUT_DIR,
      emptyOutDir: true,
      assetsDir: 'assets',
      // No inline scripts or styles in the shell: the page's CSP allows none.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      sourcemap: false,
      reportCompressedSize: false,
    },
  });
  // The widget frames' shared runtime and bootstrap, into the same assets folder.
  await buildFrameRuntime(OUT_DIR, options);
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  return true;
}
