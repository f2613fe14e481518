// V8 runs some JavaScript in tasks it posts to the isolate, outside any call: a settled
// `WebAssembly.compile` or `instantiate`, and FinalizationRegistry callbacks. The runner enters
// calls on its own thread while no work of the isolate can be running elsewhere, and such a task
// would run whenever the isolate next works on the pool, for as long as partner code likes. So
// neither posts one here: WebAssembly compiles at once (the promise is settled when returned), and
// FinalizationRegistry never calls back, which the language allows (a cleanup callback may never run).
// `Atomics.waitAsync` is removed in the prelude's index for the same reason and one more.

import type { IsolateGlobal, WebAssemblyNamespace } from './_isolateGlobals.js';

/** Replaces the posting APIs on `g` with ones that post nothing. */
export function withoutPostedTasks(g: IsolateGlobal): void {
  const wasm = g.WebAssembly;
  if (wasm !== undefined) {
    const { Module, Instance } = wasm;
    const settle = <T>(make: () => T): Promise<T> => {
      try {
        return Promise.resolve(make());
      } catch (error) {
        return Promise.reject(error);
      }
    };
    const replacements: Pick<WebAssemblyNamespace, 'compile' | 'instantiate'> = {
      compile(bytes) {
        return settle(() => new Module(bytes));
      },
      instantiate(source, imports) {
        return settle(() => {
          if (source instanceof Module) return new Instance(source, imports);
          const module = new Module(source);
          return { module, instance: new Instance(module, imports) };
        });
      },
    };
    for (const name of ['compile', 'instantiate'] as const) {
      Object.defineProperty(wasm, name, {
        value: replacements[name],
        writable: true,
        configurable: true,
        enumerable: false,
      });
    }
    for (const name of ['compileStreaming', 'instantiateStreaming'] as const) delete wasm[name];
  }
  if (typeof g.FinalizationRegistry === 'function') {
    const isTarget = (value: unknown): value is object =>
      (typeof value === 'object' && value !== null) || typeof value === 'function';
    // Same surface: register, unregister (true once per registered token), its tag and name.
    class SilentRegistry {
      #tokens = new WeakSet();
      constructor(cleanup: unknown) {
        if (typeof cleanup !== 'function')
          throw new TypeError('FinalizationRegistry: cleanup must be callable');
      }
      register(target: unknown, heldValue: unknown, unregisterToken?: unknown): void {
        if (!isTarget(target)) throw new TypeError('FinalizationRegistry.prototype.register: invalid target');
        if (target === heldValue) {
          throw new TypeError(
            'FinalizationRegistry.prototype.register: target and holdings must not be same',
          );
        }
        if (unregisterToken !== undefined) {
          if (!isTarget(unregisterToken)) {
            throw new TypeError('FinalizationRegistry.prototype.register: invalid unregister token');
          }
          this.#tokens.add(unregisterToken);
        }
      }
      unregister(unregisterToken: unknown): boolean {
        if (!isTarget(unregisterToken)) {
          throw new TypeError('FinalizationRegistry.prototype.unregister: invalid unregister token');
        }
        return this.#tokens.delete(unregisterToken);
      }
      get [Symbol.toStringTag](): string {
        return 'FinalizationRegistry';
      }
    }
    Object.defineProperty(SilentRegistry, 'name', { value: 'FinalizationRegistry' });
    Object.defineProperty(g, 'FinalizationRegistry', {
      value: SilentRegistry,
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
}
