import { basename, dirname } from 'node:path';
import { build } from 'esbuild';
import { confine, hostNodePaths, hostPackageFolders } from './_confine.js';
import { mentionsLocales, zodLocalesLeftOut } from './_zodLocales.js';

/**
 * Builds a version's server bundle: the definition entry with its handlers, zod and the guest
 * engine, as one ES module whose default export is the definition and whose `__platformRunGuestCall`
 * export is the guest engine's entry (what an isolate calls), minified but for names. The runtime
 * never builds.
 * @example const bundle = await buildBundle('/work/acme/src/acme-notes/integration.ts');
 */
export async function buildBundle(
  entry: string,
  options: {
    /**
     * Folders every bundled file must be in besides the host's own `node_modules` (the gate passes
     * the unpacked project): an import of anything else (`/etc/...`, `../../host-data/...`) fails
     * the build instead of embedding a host file in a partner's bundle.
     */
    confineTo?: readonly string[];
  } = {},
): Promise<string> {
  // zod's translated error messages (every language: 288 of the bench bundle's 621 KiB, and about
  // 1.5 MiB of every isolate and runner holding the version) stay out unless a bundled file
  // outside zod mentions `locales`; then the bundle is built again with them.
  const lean = await bundleOnce(entry, options, true);
  if (!(await mentionsLocales(lean.inputs))) return lean.text;
  return (await bundleOnce(entry, options, false)).text;
}

async function bundleOnce(
  entry: string,
  options: { confineTo?: readonly string[] },
  leaveOutZodLocales: boolean,
): Promise<{ text: string; inputs: string[] }> {
  const result = await build({
    // The host's own node_modules stay allowed: the fallback for the guest engine (public code only).
    plugins: [
      ...(options.confineTo === undefined ? [] : [confine([...options.confineTo, ...hostPackageFolders()])]),
      ...(leaveOutZodLocales ? [zodLocalesLeftOut()] : []),
    ],
    // The guest engine comes from the project's own @platform/sdk, like the definition's imports.
    stdin: {
      contents: [
        `export { default } from ${JSON.stringify(`./${basename(entry)}`)};`,
        "export { runGuestCall as __platformRunGuestCall } from '@platform/sdk/runtime';",
      ].join('\n'),
      resolveDir: dirname(entry),
      sourcefile: `${basename(entry)}.bundle.js`,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    // A project outside any node_modules tree (a scratch folder) gets the guest engine of the host's tree.
    nodePaths: hostNodePaths(),
    // Inside this monorepo packages resolve to their sources; published packages ship src too.
    conditions: ['@platform/source', 'import', 'default'],
    target: 'es2022',
    jsx: 'automatic',
    // Libraries such as React pick their build from NODE_ENV; the sandbox has no `process`.
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    // Whitespace and comments out: a smaller bundle (805 -> 621 KiB for the bench's with zod's
    // translations, 336 KiB without), and one V8 keeps as a one-byte string (a comment with one
    // non-Latin-1 character, as zod's locales have, makes all the source two bytes a character, in
    // the runner and in every isolate of the version). Names stay: no identifier minifying, so stack traces and `fn.name` read as written
    // (esbuild's keepNames would cost ~0.5 MiB of heap per isolate). Lines are lost in traces.
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`esbuild produced no output for ${entry}`);
  return { text: output.text, inputs: Object.keys(result.metafile.inputs) };
}
