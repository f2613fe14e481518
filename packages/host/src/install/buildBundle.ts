import { basename, dirname, join, parse } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Builds a version's server bundle: the definition entry with its handlers, zod and the guest
 * engine, as one ES module whose default export is the definition and whose `__platformRunGuestCall`
 * export is the guest engine's entry (what an isolate calls). The runtime never builds.
 * @example const bundle = await buildBundle('/work/acme/src/acme-notes/integration.ts');
 */
export async function buildBundle(entry: string): Promise<string> {
  const result = await build({
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
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`esbuild produced no output for ${entry}`);
  return output.text;
}

// Every node_modules folder above this package, nearest first: where the host's own @platform/sdk is.
function hostNodePaths(): string[] {
  const paths: string[] = [];
  let dir = fileURLToPath(new URL('../../', import.meta.url));
  while (true) {
    paths.push(join(dir, 'node_modules'));
    if (dir === parse(dir).root) return paths;
    dir = dirname(dir);
  }
}
