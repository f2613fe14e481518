import { BROWSER_SHARED_MODULES } from './rules/browserBundle.js';

/** The part of esbuild's metafile this module reads. */
export interface MetafileLike {
  readonly inputs: Readonly<
    Record<
      string,
      {
        readonly imports: readonly {
          readonly path: string;
          readonly external?: boolean;
          readonly original?: string;
        }[];
      }
    >
  >;
}

/** The part of esbuild's plugin API this plugin uses (this package does not depend on esbuild). */
export interface OnResolvePlugin {
  readonly name: string;
  setup(build: {
    onResolve(
      options: { filter: RegExp },
      callback: (args: { path: string; importer: string }) => { path: string; namespace: string } | undefined,
    ): void;
    onLoad(
      options: { filter: RegExp; namespace: string },
      callback: (args: { path: string }) => { contents: string; loader: 'js' },
    ): void;
  }): void;
}

const SHARED = new Set<string>(BROWSER_SHARED_MODULES);
const NAMESPACE = 'platform-server-side';
const SDK_INTEGRATION = '@platform/sdk/integration';

// What a server-side import of the definition becomes in the browser: a value that is every value
// (callable, constructible, any property itself), so the definition's actions, schemas and
// handlers evaluate to nothing while its widgets are the real components.
const INERT = [
  'const inert = new Proxy(function () {}, {',
  "  get: (_, key) => key === Symbol.toPrimitive ? () => '' : key === Symbol.iterator ? function* () {} : key === 'then' ? undefined : inert,",
  '  apply: () => inert,',
  '  construct: () => inert,',
  '  getPrototypeOf: () => inert,',
  '});',
].join('\n');

/**
 * The definition file's imports that its widgets do not need, by the specifier the definition
 * wrote: the packages it imports (zod, `@platform/sdk/integration`) and each of its project modules
 * that reaches a package but none of {@link BROWSER_SHARED_MODULES} and no `.tsx`/`.jsx` file
 * (schemas, the handlers' modules). A module importing nothing (a plain widget) stays. Widget modules, and anything
 * they import, stay as they are.
 */
export function serverSideImports(metafile: MetafileLike, definitionFile: string): Set<string> {
  // The definition's key: what the browser entry's `import definition from './<file>'` resolved to.
  const entryFile = Object.entries(metafile.inputs)
    .filter(([key]) => key.endsWith('.browser.js'))
    .flatMap(([, input]) => input.imports)
    .find((item) => item.original === `./${definitionFile}`)?.path;
  if (entryFile === undefined) return new Set();
  const inPackage = (file: string) => /node_modules/.test(file);
  // Whether a project file reaches (through project files) an import matching `test`.
  const reaches = (test: (item: { path: string; external?: boolean }) => boolean) => {
    const memo = new Map<string, boolean>();
    const visit = (file: string): boolean => {
      const known = memo.get(file);
      if (known !== undefined) return known;
      memo.set(file, false);
      const found = (metafile.inputs[file]?.imports ?? []).some(
        (item) => test(item) || (item.external !== true && !inPackage(item.path) && visit(item.path)),
      );
      memo.set(file, found);
      return found;
    };
    return visit;
  };
  const reachesShared = reaches((item) => item.external === true && SHARED.has(item.path));
  const reachesPackage = reaches((item) => item.external !== true && inPackage(item.path));
  const browser = (file: string) => /\.[jt]sx$/.test(file) || reachesShared(file);
  const server = new Set<string>();
  for (const item of metafile.inputs[entryFile]?.imports ?? []) {
    if (item.original === undefined || item.external === true) continue;
    const serverSide = inPackage(item.path) || (!browser(item.path) && reachesPackage(item.path));
    if (item.original === SDK_INTEGRATION || serverSide) {
      server.add(item.original);
    }
  }
  return server;
}

/**
 * An esbuild plugin for a browser bundle's second build: the definition's server-side imports
 * ({@link serverSideImports}) load as inert values, and `@platform/sdk/integration`'s
 * `defineIntegration` as the identity, so zod, the schema checks and the handlers' modules stay out
 * and only the widgets (and what they import) are bundled. `entryPath` is the definition's path as
 * esbuild passes importers (absolute; give the real path too when they differ).
 */
export function definitionWidgetsOnly(
  entryPaths: readonly string[],
  server: ReadonlySet<string>,
): OnResolvePlugin {
  return {
    name: 'platform-definition-widgets-only',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) =>
        entryPaths.includes(args.importer) && server.has(args.path)
          ? { path: args.path, namespace: NAMESPACE }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents:
          args.path === SDK_INTEGRATION
            ? `${INERT}\nmodule.exports = new Proxy({ defineIntegration: (definition) => definition }, { get: (target, key) => key in target ? target[key] : inert, getPrototypeOf: () => inert });`
            : `${INERT}\nmodule.exports = inert;`,
        loader: 'js',
      }));
    },
  };
}
