import { isBuiltin } from 'node:module';
import { relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Message, Plugin } from 'esbuild';

/** An entry compiled to one ESM module, or the compiler's errors. */
export type BundleResult =
  | { readonly ok: true; readonly code: string }
  | { readonly ok: false; readonly errors: readonly Message[] };

const RESOLVING = Symbol('resolving');

/**
 * Compiles an entry (TypeScript, TSX, its local imports) to one ESM module without a build step.
 * Packages stay external, rewritten to absolute file URLs resolved as Node would (conditions
 * `node`, `import`, `default`; `main`, never `module`), so the module can be imported from anywhere
 * and shares package instances with everything else the process loads. An inline source map makes
 * stack traces point at the partner's own files.
 */
export async function bundleEntry(
  projectDir: string,
  entryPath: string,
  outfile: string,
): Promise<BundleResult> {
  const esbuild = await import('esbuild');
  try {
    const result = await esbuild.build({
      entryPoints: [entryPath],
      absWorkingDir: projectDir,
      outfile,
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      jsx: 'automatic',
      conditions: [],
      mainFields: ['main'],
      sourcemap: 'inline',
      sourcesContent: false,
      logLevel: 'silent',
      // Widget assets do not matter to a definition; they must not stop it from loading.
      loader: {
        '.css': 'empty',
        '.svg': 'empty',
        '.png': 'empty',
        '.jpg': 'empty',
        '.gif': 'empty',
        '.webp': 'empty',
      },
      plugins: [externalPackages(projectDir)],
    });
    const output = result.outputFiles[0];
    if (output === undefined) throw new Error(`esbuild wrote no output for ${entryPath}`);
    return { ok: true, code: output.text };
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors;
    if (Array.isArray(errors) && errors.length > 0) return { ok: false, errors };
    throw error;
  }
}

function externalPackages(projectDir: string): Plugin {
  return {
    name: 'platform-external-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === RESOLVING) return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: RESOLVING,
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        if (resolved.external) return { path: args.path, external: true };
        // A bare specifier that lands in the project's own sources (tsconfig `paths`) is bundled.
        const local = relative(projectDir, resolved.path);
        if (!local.startsWith('..') && !local.split(sep).includes('node_modules'))
          return { path: resolved.path };
        return { path: pathToFileURL(resolved.path).href, external: true };
      });
    },
  };
}
