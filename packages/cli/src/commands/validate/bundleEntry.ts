import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { dirname, extname, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Loader, Message, Plugin } from 'esbuild';

/** An entry compiled to one ESM module, or the compiler's errors. */
export type BundleResult =
  | { readonly ok: true; readonly code: string }
  | { readonly ok: false; readonly errors: readonly Message[] };

const RESOLVING = Symbol('resolving');

/**
 * Compiles an entry (TypeScript, TSX, its local imports) to one ESM module without a build step.
 * Packages stay external, rewritten to absolute file URLs resolved as Node would (conditions
 * `node`, `import`, `default`; `main`, never `module`), so the module can be imported from anywhere
 * and shares package instances with everything else the process loads. `import.meta.url` (and
 * `dirname`, `filename`) keep naming each source file, and an inline source map makes stack traces
 * point at the partner's own files.
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
      plugins: [externalPackages(projectDir), sourceImportMeta()],
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

const LOADERS: Readonly<Record<string, Loader>> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
};

// Bundling moves every source file into one module; give each its own `import.meta` back.
function sourceImportMeta(): Plugin {
  return {
    name: 'platform-source-import-meta',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        const contents = await readFile(args.path, 'utf8');
        if (!contents.includes('import.meta')) return undefined;
        const meta: Record<string, string> = {
          url: pathToFileURL(args.path).href,
          dirname: dirname(args.path),
          filename: args.path,
        };
        return {
          contents: contents.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key: string) =>
            JSON.stringify(meta[key]),
          ),
          loader: LOADERS[extname(args.path)] ?? 'default',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}
