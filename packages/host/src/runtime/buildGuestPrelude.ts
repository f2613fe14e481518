import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The prelude's sources (TypeScript, shipped with the package's `src`; esbuild strips the types), from `src` or `dist`. */
const PRELUDE_ENTRY = fileURLToPath(new URL('../../src/runner/prelude/index.ts', import.meta.url));

let cached: Promise<string> | undefined;

const TAKE_DELIVER =
  '(() => { const deliver = globalThis.__platformDeliver; delete globalThis.__platformDeliver; return deliver; })();';

/**
 * The isolate prelude (web APIs and the bridge glue) as one script, built once per host process
 * from `src/runner/prelude`; runners compile it once and reuse the V8 code cache for every isolate.
 * @example const prelude = await buildGuestPrelude();
 */
export function buildGuestPrelude(): Promise<string> {
  cached ??= (async () => {
    const entry = PRELUDE_ENTRY;
    if (!existsSync(entry))
      throw new Error(`the isolate prelude is missing at ${entry}; reinstall @platform/host`);
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      format: 'iife',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      target: 'es2022',
      write: false,
      logLevel: 'silent',
      legalComments: 'none',
      minify: true,
    });
    const output = result.outputFiles[0];
    if (output === undefined) throw new Error('esbuild produced no isolate prelude');
    // The script's value is `__platformDeliver`, taken off the global object before any partner
    // code runs: the runner keeps it as a reference without reading the global.
    return `${output.text}${TAKE_DELIVER}\n`;
  })();
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}
