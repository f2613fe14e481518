const TAKE_RUN =
  '(() => { const run = globalThis.__platformRun; delete globalThis.__platformRun; return run; })();';

/**
 * Turns a version's bundle (an ES module ending in esbuild's single `export { ... }` statement)
 * into a classic script for the isolate: isolated-vm caches compiled code for scripts, not for
 * modules. The script hands its exports to the prelude's `__platformSetBundle`; its value is the
 * prelude's run function for that bundle (taken off the global object).
 * @example const script = toIsolateScript(await version.loadBundle());
 */
export function toIsolateScript(bundle: string): string {
  const match = /export\s*\{([^}]*)\}\s*;?\s*$/.exec(bundle);
  if (match === null) {
    throw new Error('the bundle does not end with an export list; build it with platform-host install');
  }
  const exports = match[1]!
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const [local, exported = local] = part.split(/\s+as\s+/);
      return `${JSON.stringify(exported)}: ${local}`;
    });
  const body = bundle.slice(0, match.index);
  // A function scope keeps the bundle's top-level names off the global object, as in a module.
  // The last expression takes the prelude's run function off the global object: the script's
  // value, which the runner keeps as a reference (one step fewer than reading the global).
  return `(function () {\n'use strict';\n${body}\n__platformSetBundle({ ${exports.join(', ')} });\n})();\n${TAKE_RUN}\n`;
}
