import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, parse, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

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

const ZOD_LOCALES_INDEX = /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/;
const IN_ZOD = /[\\/]node_modules[\\/]zod[\\/]/;

// Whether a bundled file other than zod's own names `locales` (z.locales, zod/locales, ...).
async function mentionsLocales(inputs: readonly string[]): Promise<boolean> {
  for (const input of inputs) {
    if (IN_ZOD.test(`/${input}`) || !existsSync(input)) continue;
    if (/\blocales\b/.test(await readFile(input, 'utf8'))) return true;
  }
  return false;
}

// zod's locales index as functions that say why they are missing (reached without naming them).
function zodLocalesLeftOut(): Plugin {
  return {
    name: 'platform-zod-locales-left-out',
    setup(build) {
      build.onLoad({ filter: ZOD_LOCALES_INDEX }, async (args) => {
        const names = [...(await readFile(args.path, 'utf8')).matchAll(/default as (\w+)/g)].map(
          (match) => match[1]!,
        );
        // One message for all: the stub is a few bytes a locale (a message each would add 13 KiB).
        const contents = [
          `const leftOut = (name) => () => { throw new Error(\`zod's locale "\${name}" is not in this bundle: no file of the project mentions \\\`locales\\\`, so the build left zod's translations out. Name them in the source (for example z.config(z.locales.\${name}())) and build again.\`); };`,
          ...names.map((name) => `export const ${name} = leftOut(${JSON.stringify(name)});`),
        ].join('\n');
        return { contents, loader: 'js' };
      });
    },
  };
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

/** Refuses to load any file outside `roots` (compared by real path). */
function confine(roots: readonly string[]): Plugin {
  const real = roots.map((root) => realpathSync(root));
  const inside = (file: string) =>
    real.some((root) => {
      const rel = relative(root, file);
      return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep);
    });
  return {
    name: 'platform-confine',
    setup(build) {
      build.onLoad({ filter: /.*/ }, (args) => {
        if (args.namespace !== 'file' || inside(realpathSync(args.path))) return undefined;
        return {
          errors: [
            {
              text: `${args.path} is outside the project; a bundle may only include the project's own files and its installed dependencies`,
            },
          ],
        };
      });
    },
  };
}

// The host's node_modules folders, and where its `@platform/*` packages really are (in this
// checkout, workspace links to packages/*).
function hostPackageFolders(): string[] {
  const folders: string[] = [];
  for (const dir of hostNodePaths().filter((path) => existsSync(path))) {
    folders.push(dir);
    const scope = join(dir, '@platform');
    if (!existsSync(scope)) continue;
    for (const name of readdirSync(scope)) folders.push(realpathSync(join(scope, name)));
  }
  return folders;
}
