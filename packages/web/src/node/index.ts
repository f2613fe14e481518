import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRAME_MANIFEST, type FrameManifest } from './frameManifest.js';

export { FRAME_MANIFEST, type FrameManifest, SHARED_MODULES } from './frameManifest.js';
export {
  type WidgetFrameOptions,
  type WidgetFramePage,
  widgetFrameErrorHtml,
  widgetFrameHtml,
} from './widgetFrameHtml.js';

/** Where `npm run build` (or the tests' global setup) leaves the built web app. */
export const WEB_APP_DIR: string = join(import.meta.dirname, '..', '..', 'dist', 'app');

/** One built file of the web app, read once: the shell page or a hashed asset. */
export interface WebAppFile {
  readonly body: Uint8Array;
  readonly contentType: string;
}

/** The built web app as the host serves it: the shell page and the hashed assets by name. */
export interface WebAppFiles {
  readonly shell: string;
  readonly assets: ReadonlyMap<string, WebAppFile>;
  /** The widget frames' runtime (shared modules, bootstrap, styles); undefined in a build without it. */
  readonly frame: FrameManifest | undefined;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/**
 * Reads the built web app (the shell `index.html` and every file under `assets/`), or answers
 * undefined when it is not built: the host then serves a page saying how to build it. Assets are
 * only the files the build wrote, so a request can never name a path outside them.
 * @example const files = readWebAppFiles(); files?.assets.get('index-3fa9.js');
 */
export function readWebAppFiles(dir: string = WEB_APP_DIR): WebAppFiles | undefined {
  const shellPath = join(dir, 'index.html');
  if (!existsSync(shellPath)) return undefined;
  const assets = new Map<string, WebAppFile>();
  const assetDir = join(dir, 'assets');
  for (const name of existsSync(assetDir) ? readdirSync(assetDir) : []) {
    const extension = name.slice(name.lastIndexOf('.'));
    const contentType = CONTENT_TYPES[extension];
    if (contentType === undefined) continue;
    assets.set(name, { body: readFileSync(join(assetDir, name)), contentType });
  }
  const framePath = join(dir, FRAME_MANIFEST);
  const frame = existsSync(framePath)
    ? (JSON.parse(readFileSync(framePath, 'utf8')) as FrameManifest)
    : undefined;
  return { shell: readFileSync(shellPath, 'utf8'), assets, frame };
}
