import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { buildBundle } from '@platform/host';
import { describe, expect, it } from 'vitest';
import { buildGuestPrelude } from '../src/runtime/buildGuestPrelude.js';
import { toIsolateScript } from '../src/runtime/toIsolateScript.js';

// What the runner compiles into each isolate: the bundle (minified but for names), the script made
// of it, and the prelude. Run here in a plain `vm` context: only their shape is under test.

describe('isolate code', () => {
  it('builds a bundle without comments or non-Latin-1 text, keeping function names', async () => {
    const bundle = await buildBundle(
      fileURLToPath(new URL('./fixtures/notes/integration.ts', import.meta.url)),
    );
    // One byte a character in the runner and in each isolate (one such character makes all two bytes).
    expect([...bundle].every((char) => char.charCodeAt(0) <= 0xff)).toBe(true);
    expect(bundle).not.toMatch(/^\s*\/\/ (node_modules|packages)\//m);
    // Names are not minified: stack traces and `fn.name` read as written.
    expect(bundle).toContain('function runGuestCall(');
  });

  it("turns a bundle into a script whose value is the prelude's run function, taken off the global", () => {
    const script = toIsolateScript(
      'var helper = 1;function handler(){return helper}export{handler as default,handler as __platformRunGuestCall};',
    );
    const context = vm.createContext({});
    vm.runInContext(
      `globalThis.__platformSetBundle = (namespace) => {
        delete globalThis.__platformSetBundle;
        globalThis.__platformRun = () => namespace.default() + (namespace.__platformRunGuestCall === namespace.default ? 1 : 0);
      };`,
      context,
    );
    const run = vm.runInContext(script, context) as () => number;
    expect(run()).toBe(2);
    expect(
      vm.runInContext('[typeof __platformRun, typeof __platformSetBundle, typeof helper]', context),
    ).toEqual(['undefined', 'undefined', 'undefined']);
  });

  it('builds a prelude whose value is its `__platformDeliver`, taken off the global before partner code', async () => {
    const context = vm.createContext({});
    const noop = () => undefined;
    context.__platformBridge = { post: noop, log: noop, randomBytes: () => '', subtle: noop, begin: noop };
    const deliver = vm.runInContext(await buildGuestPrelude(), context);
    expect(typeof deliver).toBe('function');
    expect(
      vm.runInContext(
        '[typeof __platformDeliver, typeof __platformBridge, typeof __platformSetBundle]',
        context,
      ),
    ).toEqual(['undefined', 'undefined', 'function']);
  });
});
