import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { buildBundle, createIsolatedRuntime, type IsolatedRuntime } from '@platform/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeBundle } from './_runtime.js';
import { webApiCases } from './fixtures/webapis/cases.js';

// A differential test of the isolate prelude's web APIs: the fixture computes each area's cases
// inside a real isolate, the test computes the same cases in Node, and the JSON must be equal.

let runtime: IsolatedRuntime;
let bundle: string;

beforeAll(async () => {
  bundle = await buildBundle(fileURLToPath(new URL('./fixtures/webapis/integration.ts', import.meta.url)));
  runtime = createIsolatedRuntime({ runners: 1 });
});
afterAll(() => runtime.close());

async function inIsolate(actionName: string, input: unknown): Promise<any> {
  const envelope = await invokeBundle(runtime, {
    bundle,
    versionId: 'webapis-v1',
    actionName,
    input,
    timeoutMs: 10_000,
  });
  if (!envelope.ok) throw new Error(`${actionName} failed in the isolate: ${JSON.stringify(envelope.error)}`);
  return envelope.data;
}

const inNode = async (area: string) => JSON.parse(JSON.stringify({ result: await webApiCases[area]!() }));

describe('guest web APIs: the isolate agrees with Node', () => {
  for (const area of Object.keys(webApiCases)) {
    it(area, async () => {
      const [isolate, node] = await Promise.all([inIsolate('run', { area }), inNode(area)]);
      if (area === 'subtle' && node.result.errors.notExtractable.error === 'InvalidAccessException') {
        // Node 20 names this error InvalidAccessException; Web Crypto (and the isolate) say InvalidAccessError.
        expect(isolate.result.errors.notExtractable).toEqual({ error: 'InvalidAccessError' });
        node.result.errors.notExtractable = isolate.result.errors.notExtractable;
      }
      expect(isolate).toEqual(node);
    });
  }

  it('leaks no globals beyond the JavaScript built-ins and the prelude', async () => {
    const { names } = (await inIsolate('globals', {})) as { names: string[] };
    // What a bare V8 context has (the same V8 as the runner's isolates).
    const builtins = new Set(vm.runInNewContext('Object.getOwnPropertyNames(globalThis)') as string[]);
    const prelude = [
      'AbortController',
      'AbortSignal',
      'CryptoKey',
      'DOMException',
      'Event',
      'EventTarget',
      'Headers',
      'Request',
      'Response',
      'TextDecoder',
      'TextEncoder',
      'URL',
      'URLSearchParams',
      'atob',
      'btoa',
      'clearInterval',
      'clearTimeout',
      'crypto',
      'queueMicrotask',
      'self',
      'setInterval',
      'setTimeout',
      'structuredClone',
      // Not the prelude's: zod (bundled with the fixture) keeps its registry and config there.
      '__zod_globalConfig',
      '__zod_globalRegistry',
    ];
    expect(names.filter((name) => !builtins.has(name)).sort()).toEqual([...prelude].sort());
    expect([...builtins].filter((name) => !names.includes(name))).toEqual([]);
  });
});
