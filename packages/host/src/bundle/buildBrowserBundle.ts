import { realpathSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  BROWSER_BUNDLE_OPTIONS,
  BROWSER_SHARED_MODULES,
  type BrowserBundleComponents,
  browserBundleEntry,
  definitionWidgetsOnly,
  serverSideImports,
} from '@platform/integration-schema';
import { build, type Metafile, type Plugin } from 'esbuild';
import { confine, hostNodePaths, hostPackageFolders } from './_confine.js';
import { mentionsLocales, zodLocalesLeftOut } from './_zodLocales.js';

export type { BrowserBundleComponents };
/** The modules widget frames share with the host (integration-schema's list, the one rule). */
export { BROWSER_SHARED_MODULES };

/** A version's browser bundle and its compressed size (what validate and the gate report). */
export interface BrowserBundle {
  /**
   * One ES module: `export const widgets = { <widget id>: <component> }`, and `tile` and
   * `activationForm` (the components) when given.
   */
  readonly code: string;
  /** Its size gzipped, in bytes. */
  readonly gzipBytes: number;
}

/**
 * Builds a version's browser bundle: the definition entry's widgets as one minified ES module whose
 * `widgets` export maps each widget's id to its component (the definition's server-side imports
 * left out: integration-schema's `definitionWidgetsOnly`) and whose `tile` and `activationForm`
 * exports are the default exports of those modules, when given, with {@link BROWSER_SHARED_MODULES} left
 * as bare imports (the frame's import map resolves them to the host's one copy). Like the server
 * bundle, `confineTo` refuses any file outside the project and the host's own packages.
 * @example const { code } = await buildBrowserBundle('/work/acme/src/acme-notes/integration.ts');
 */
export async function buildBrowserBundle(
  entry: string,
  options: { confineTo?: readonly string[] } & BrowserBundleComponents = {},
): Promise<BrowserBundle> {
  // A first build finds the definition's imports its widgets do not need (server-side: schemas,
  // handlers' modules, zod, the sdk's checks); the bundle is built again with them left out.
  const whole = await bundleOnce(entry, options, true, undefined);
  const server = serverSideImports(whole.metafile, basename(entry));
  const widgetsOnly =
    server.size === 0 ? undefined : (definitionWidgetsOnly([entry, realpathSync(entry)], server) as Plugin);
  const lean = widgetsOnly === undefined ? whole : await bundleOnce(entry, options, true, widgetsOnly);
  // zod's translations stay out unless a file names them, as in the server bundle (buildBundle).
  return (await mentionsLocales(lean.inputs))
    ? (await bundleOnce(entry, options, false, widgetsOnly)).bundle
    : lean.bundle;
}

async function bundleOnce(
  entry: string,
  options: { confineTo?: readonly string[] } & BrowserBundleComponents,
  leaveOutZodLocales: boolean,
  widgetsOnly: Plugin | undefined,
): Promise<{ bundle: BrowserBundle; inputs: string[]; metafile: Metafile }> {
  const result = await build({
    plugins: [
      ...(options.confineTo === undefined ? [] : [confine([...options.confineTo, ...hostPackageFolders()])]),
      ...(leaveOutZodLocales ? [zodLocalesLeftOut()] : []),
      ...(widgetsOnly === undefined ? [] : [widgetsOnly]),
    ],
    ...BROWSER_BUNDLE_OPTIONS,
    external: [...BROWSER_BUNDLE_OPTIONS.external],
    conditions: [...BROWSER_BUNDLE_OPTIONS.conditions],
    stdin: {
      contents: browserBundleEntry(basename(entry), options),
      resolveDir: dirname(entry),
      sourcefile: `${basename(entry)}.browser.js`,
      loader: 'js',
    },
    nodePaths: hostNodePaths(),
    write: false,
    metafile: true,
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`esbuild produced no browser bundle for ${entry}`);
  return {
    bundle: { code: output.text, gzipBytes: gzipSync(output.contents).byteLength },
    inputs: Object.keys(result.metafile.inputs),
    metafile: result.metafile,
  };
}
