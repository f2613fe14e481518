import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

// What a dashboard pays for @platform/ui's widget chrome: the bundle of `Widget` (and its parts,
// Radix's dropdown menu, the chrome's icons), minified and gzipped, with React left out as the
// host provides it. Baseline, measured in the same run the same way: React + ReactDOM's client.
//
// Budget: 40 KB gzipped, about 0.6x React + ReactDOM, paid once per page. Why: the host bundles one
// copy of the chrome for every widget on the dashboard (a shared dependency, like React), so it is
// not multiplied by the number of widgets. Most of it is the keyboard-accessible menu primitive
// (Radix's dropdown: positioning, focus scope, dismissal, roving focus, about 31 KB), which the
// issue asks for rather than a hand-written menu; our own code is about 3 KB; the rest is headroom.
// A widget bundle that inlined its own copy would pay it once per widget: the last line shows that
// cost for a 12-widget dashboard, to keep the difference visible.
const BUDGET_BYTES = 40 * 1024;
const WIDGETS_ON_A_DASHBOARD = 12;

const require = createRequire(import.meta.url);
const external = [
  'react',
  'react-dom',
  'react/jsx-runtime',
  'react-dom/client',
  'next-intl',
  '@tanstack/react-query',
];

interface Size {
  readonly name: string;
  readonly minified: number;
  readonly gzipped: number;
}

async function bundle(name: string, contents: string, options: { external?: string[] } = {}): Promise<Size> {
  const result = await build({
    stdin: { contents, loader: 'ts', resolveDir: import.meta.dirname },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@platform/source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    external: options.external ?? external,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { name, minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

function sizeOfFile(name: string, path: string): Size {
  const content = readFileSync(path);
  return { name, minified: content.byteLength, gzipped: gzipSync(content, { level: 9 }).byteLength };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function benchUiSize(): Promise<void> {
  const react = await bundle(
    'baseline: react + react-dom/client',
    `export * from 'react'; export { createRoot } from 'react-dom/client';`,
    { external: [] },
  );
  const chrome = await bundle(
    'widget chrome: Widget and its parts',
    `export { Widget } from '@platform/ui';`,
  );
  const radix = await bundle(
    '  of which Radix dropdown menu alone',
    `export * from '@radix-ui/react-dropdown-menu';`,
  );
  const rows: Size[] = [
    react,
    chrome,
    radix,
    await bundle('@platform/ui, every export (form, Translate, Icon)', `export * from '@platform/ui';`),
    await bundle('@platform/sdk/hooks, every export', `export * from '@platform/sdk/hooks';`),
    await bundle('@platform/ui/icons (CLI only, never in widgets)', `export * from '@platform/ui/icons';`),
    sizeOfFile('@platform/ui/styles.css', require.resolve('@platform/ui/styles.css')),
  ];

  console.log(
    '\n@platform/ui bundle size (esbuild, minified, gzip -9; react, next-intl, react-query external)',
  );
  console.log(
    `  ${'bundle'.padEnd(52)} ${'minified'.padStart(10)} ${'gzipped'.padStart(10)} ${'x baseline'.padStart(11)}`,
  );
  for (const row of rows) {
    console.log(
      `  ${row.name.padEnd(52)} ${kb(row.minified).padStart(10)} ${kb(row.gzipped).padStart(10)} ${(row.gzipped / react.gzipped).toFixed(2).padStart(10)}x`,
    );
  }
  const verdict = chrome.gzipped <= BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `  widget chrome: ${kb(chrome.gzipped)} gzipped, ${((chrome.gzipped / BUDGET_BYTES) * 100).toFixed(0)}% of its ${kb(BUDGET_BYTES)} budget (${verdict}); ${(chrome.gzipped / react.gzipped).toFixed(2)}x React + ReactDOM`,
  );
  console.log(
    `  on a ${WIDGETS_ON_A_DASHBOARD}-widget dashboard: ${kb(chrome.gzipped)} shared once by the host, or ${kb(chrome.gzipped * WIDGETS_ON_A_DASHBOARD)} if every widget bundle inlined its own copy`,
  );
}
