import { basename, dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { confine, hostNodePaths, hostPackageFolders } from './_confine.js';
import { mentionsLocales, zodLocalesLeftOut } from './_zodLocales.js';

/**
 * The modules every widget frame shares with the host's runtime instead of bundling its own copy:
 * the frame's import map points each at one hashed asset of the web app (`@platform/web`'s
 * `SHARED_MODULES`, the same list). A partner import of any other package is bundled.
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

/** A version's browser bundle and its compressed size (what validate and the gate will report). */
export interface BrowserBundle {
  /**
   * One ES module: `export const widgets = { <widget id>: <component> }`, and `tile` and
   * `activationForm` (the components) when given.
   */
  readonly code: string;
  /** Its size gzipped, in bytes. */
  readonly gzipBytes: number;
}

/** The frame components beside the widgets: absolute paths of modules whose default export is one. */
export interface BrowserBundleComponents {
  readonly tile?: string;
  readonly activationForm?: string;
}

/**
 * Builds a version's browser bundle: the definition entry's widgets as one minified ES module whose
 * `widgets` export maps each widget's id to its component (and whose `tile` and `activationForm`
 * exports are the default exports of those modules, when given), with {@link BROWSER_SHARED_MODULES} left
 * as bare imports (the frame's import map resolves them to the host's one copy). Like the server
 * bundle, `confineTo` refuses any file outside the project and the host's own packages.
 * @example const { code } = await buildBrowserBundle('/work/acme/src/acme-notes/integration.ts');
 */
export async function buildBrowserBundle(
  entry: string,
  options: { confineTo?: readonly string[] } & BrowserBundleComponents = {},
): Promise<BrowserBundle> {
  // zod's translations stay out unless a file names them, as in the server bundle (buildBundle).
  const lean = await bundleOnce(entry, options, true);
  return (await mentionsLocales(lean.inputs))
    ? (await bundleOnce(entry, options, false)).bundle
    : lean.bundle;
}

async function bundleOnce(
  entry: string,
  options: { confineTo?: readonly string[] } & BrowserBundleComponents,
  leaveOutZodLocales: boolean,
): Promise<{ bundle: BrowserBundle; inputs: string[] }> {
  const result = await build({
    plugins: [
      ...(options.confineTo === undefined ? [] : [confine([...options.confineTo, ...hostPackageFolders()])]),
      ...(leaveOutZodLocales ? [zodLocalesLeftOut()] : []),
    ],
    stdin: {
      contents: [
        `import definition from ${JSON.stringify(`./${basename(entry)}`)};`,
        'const declared = (definition && definition.components && definition.components.widgets) || [];',
        'export const widgets = Object.fromEntries(declared.map((widget) => [widget.id, widget.component]));',
        ...componentExports(options),
      ].join('\n'),
      resolveDir: dirname(entry),
      sourcefile: `${basename(entry)}.browser.js`,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    external: [...BROWSER_SHARED_MODULES],
    nodePaths: hostNodePaths(),
    conditions: ['@platform/source', 'browser', 'import', 'default'],
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    minify: true,
    metafile: true,
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`esbuild produced no browser bundle for ${entry}`);
  return {
    bundle: { code: output.text, gzipBytes: gzipSync(output.contents).byteLength },
    inputs: Object.keys(result.metafile.inputs),
  };
}

// `export { default as tile } from '/abs/Tile.tsx';`: only the components the project names.
function componentExports(components: BrowserBundleComponents): string[] {
  return (['tile', 'activationForm'] as const).flatMap((name) => {
    const path = components[name];
    return path === undefined ? [] : [`export { default as ${name} } from ${JSON.stringify(path)};`];
  });
}
