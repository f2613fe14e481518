import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { FRAME_MANIFEST, type FrameManifest, SHARED_MODULES } from '../src/node/frameManifest.js';

const PACKAGE_DIR = join(import.meta.dirname, '..');

// The CommonJS packages: their named exports are listed (a re-export star of CommonJS is not static).
const COMMONJS = new Set(['react', 'react/jsx-runtime', 'react-dom', 'react-dom/client']);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

async function entrySource(specifier: string): Promise<string> {
  if (!COMMONJS.has(specifier)) return `export * from ${JSON.stringify(specifier)};\n`;
  const names = Object.keys(await import(specifier)).filter(
    (name) => name !== 'default' && IDENTIFIER.test(name),
  );
  return [
    `export { ${names.join(', ')} } from ${JSON.stringify(specifier)};`,
    `export { default } from ${JSON.stringify(specifier)};`,
    '',
  ].join('\n');
}

/**
 * The widget frames' runtime, a second Vite build into the same `dist/app/assets`: one hashed ES
 * module per shared specifier (`SHARED_MODULES`: react, react-dom/client, react-query,
 * @platform/ui, @platform/sdk/hooks, next-intl...), `@platform/ui/styles.css`, and the frame
 * bootstrap (`src/frame/bootstrap.tsx`), all of one module graph: the bootstrap and every partner
 * bundle (through the frame's import map) get the same instance of each. Writes
 * `frame-manifest.json` (specifier -> asset name) for `readWebAppFiles()`.
 */
export async function buildFrameRuntime(outDir: string, options: { quiet?: boolean } = {}): Promise<void> {
  const entriesDir = join(PACKAGE_DIR, 'dist', '.frame-entries');
  mkdirSync(entriesDir, { recursive: true });
  const input: Record<string, string> = {};
  for (const [index, specifier] of SHARED_MODULES.entries()) {
    const file = join(entriesDir, `shared-${index}.ts`);
    writeFileSync(file, await entrySource(specifier));
    input[`shared-${specifier.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`] = file;
  }
  input['frame-bootstrap'] = join(PACKAGE_DIR, 'src', 'frame', 'bootstrap.tsx');
  const stylesFile = join(entriesDir, 'styles.ts');
  writeFileSync(stylesFile, "import '@platform/ui/styles.css';\nimport '../../src/frame/frame.css';\n");
  input['frame-styles'] = stylesFile;

  await build({
    configFile: false,
    root: PACKAGE_DIR,
    base: '/web/',
    logLevel: options.quiet ? 'warn' : 'info',
    plugins: [react()],
    resolve: { conditions: ['@platform/source', 'browser', 'module', 'import', 'default'] },
    build: {
      outDir,
      emptyOutDir: false,
      assetsDir: 'assets',
      assetsInlineLimit: 0,
      modulePreload: false,
      sourcemap: false,
      reportCompressedSize: false,
      // The bootstrap awaits the partner bundle at its top level.
      target: 'es2022',
      manifest: 'frame-vite-manifest.json',
      rollupOptions: {
        input,
        // Entries keep their exports: partner bundles import them by name through the import map.
        preserveEntrySignatures: 'strict',
        output: { entryFileNames: 'assets/[name]-[hash].js', chunkFileNames: 'assets/[name]-[hash].js' },
      },
    },
  });

  const vite = JSON.parse(readFileSync(join(outDir, 'frame-vite-manifest.json'), 'utf8')) as Record<
    string,
    { file: string; name?: string; isEntry?: boolean; css?: string[] }
  >;
  const byName = new Map(
    Object.values(vite)
      .filter((chunk) => chunk.isEntry)
      .map((chunk) => [chunk.name, chunk]),
  );
  const asset = (name: string) => {
    const chunk = byName.get(name);
    if (chunk === undefined) throw new Error(`the frame runtime build has no entry "${name}"`);
    return chunk;
  };
  const styles = asset('frame-styles').css ?? [];
  const manifest: FrameManifest = {
    imports: Object.fromEntries(
      SHARED_MODULES.map((specifier) => [
        specifier,
        asset(`shared-${specifier.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`).file.replace(
          /^assets\//,
          '',
        ),
      ]),
    ),
    bootstrap: asset('frame-bootstrap').file.replace(/^assets\//, ''),
    styles: styles.map((file) => file.replace(/^assets\//, '')),
  };
  writeFileSync(join(outDir, FRAME_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}
