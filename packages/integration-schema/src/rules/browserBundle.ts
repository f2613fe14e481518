/**
 * An integration's browser bundle (its widgets, as widget frames load them): the one rule of its
 * compressed size and the one build configuration the host's install, its gate and `platform
 * validate` share. Data only (no esbuild, no Node): each caller hands these to its own esbuild.
 */

/** Limits of a browser bundle's gzip size, in bytes: over `warnBytes` a warning, over `errorBytes` an error. */
export const BROWSER_BUNDLE_LIMITS = {
  warnBytes: 64 * 1024,
  errorBytes: 128 * 1024,
} as const;

/** Finding codes: the bundle is too large, or it does not build. */
export const BROWSER_BUNDLE_CODES = {
  size: 'bundle.browser-size',
  build: 'bundle.browser-build',
} as const;

/**
 * The modules every widget frame shares with the host instead of bundling its own copy: a browser
 * bundle leaves them as bare imports and the frame's import map points each at one asset of the
 * host's web app (`@platform/web`'s `SHARED_MODULES`, the same list). Any other import is bundled.
 */
export const BROWSER_SHARED_MODULES = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  '@tanstack/react-query',
  '@platform/ui',
  '@platform/sdk/hooks',
  'next-intl',
] as const;

/**
 * The esbuild options of every browser bundle (install, gate, validate build with exactly these):
 * one minified ES module for browsers, the shared modules external, React's production build.
 * Callers add the entry (`stdin` from {@link browserBundleEntry}), `write: false` and their plugins.
 */
export const BROWSER_BUNDLE_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  external: [...BROWSER_SHARED_MODULES],
  // Inside this monorepo packages resolve to their sources; published packages ship src too.
  conditions: ['@platform/source', 'browser', 'import', 'default'],
  target: 'es2022',
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'silent',
  legalComments: 'none',
  minify: true,
} as const;

/** The frame components beside the widgets: absolute paths of modules whose default export is one. */
export interface BrowserBundleComponents {
  readonly tile?: string;
  readonly activationForm?: string;
}

/**
 * The browser entry's source for a definition file (`./<file>` from the definition's folder): an
 * ES module whose `widgets` export maps each declared widget's id to its component, and whose
 * `tile` and `activationForm` exports are the default exports of those modules, when given.
 * @example browserBundleEntry('integration.ts', { tile: '/p/src/Tile.tsx' }) // 'import definition from "./integration.ts"; ...'
 */
export function browserBundleEntry(definitionFile: string, components: BrowserBundleComponents = {}): string {
  return [
    `import definition from ${JSON.stringify(`./${definitionFile}`)};`,
    'const declared = (definition && definition.components && definition.components.widgets) || [];',
    'export const widgets = Object.fromEntries(declared.map((widget) => [widget.id, widget.component]));',
    ...(['tile', 'activationForm'] as const).flatMap((name) => {
      const path = components[name];
      return path === undefined ? [] : [`export { default as ${name} } from ${JSON.stringify(path)};`];
    }),
  ].join('\n');
}

/** A browser bundle's size as people read it: `63.7 KB` (KB of 1024 bytes, one decimal). */
export function formatBundleSize(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** A browser bundle over a size limit: a warning over 64 KB compressed, an error over 128 KB. */
export interface BrowserBundleSizeProblem {
  readonly code: typeof BROWSER_BUNDLE_CODES.size;
  readonly severity: 'warning' | 'error';
  readonly message: string;
  readonly hint: string;
}

/**
 * The problem of a browser bundle of `gzipBytes` compressed bytes, or undefined when it is within
 * {@link BROWSER_BUNDLE_LIMITS}`.warnBytes`. The message names the size and the limit passed.
 * @example browserBundleSizeProblem(70_000)?.severity // 'warning'
 */
export function browserBundleSizeProblem(gzipBytes: number): BrowserBundleSizeProblem | undefined {
  const { warnBytes, errorBytes } = BROWSER_BUNDLE_LIMITS;
  if (gzipBytes <= warnBytes) return undefined;
  const severity = gzipBytes > errorBytes ? 'error' : 'warning';
  const limit = severity === 'error' ? errorBytes : warnBytes;
  const consequence =
    severity === 'error' ? 'the host refuses a bundle this large' : 'widgets this large load slowly';
  return {
    code: BROWSER_BUNDLE_CODES.size,
    severity,
    message: `the browser bundle is ${formatBundleSize(gzipBytes)} compressed, over the ${formatBundleSize(limit)} ${severity === 'error' ? 'limit' : 'warning limit'}; ${consequence}`,
    hint: "Keep widgets small: move heavy libraries and data into server-side actions, and import React, react-query, @platform/ui and @platform/sdk/hooks (the host's shared libraries) instead of bundling others.",
  };
}
