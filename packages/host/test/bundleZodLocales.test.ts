import { buildBundle, createInProcessRuntime } from '@platform/host';
import { afterAll, expect, it } from 'vitest';
import { FIXTURES } from './_host.js';
import { invokeBundle } from './_runtime.js';

// zod's translations are half of a bundle that does not use them; a project that names them keeps them.
const runtime = createInProcessRuntime();
afterAll(() => runtime.close());

it('leaves zod translations out of a bundle whose files never name them, with an error that says why', async () => {
  const bundle = await buildBundle(`${FIXTURES}zod-locales/lean.ts`);
  const translated = await buildBundle(`${FIXTURES}zod-locales/translated.ts`);
  expect(bundle.length).toBeLessThan(translated.length - 200 * 1024);
  const envelope = await invokeBundle(runtime, { bundle, versionId: 'zod-lean', actionName: 'reach' });
  expect(envelope).toEqual({
    ok: true,
    data: {
      message: expect.stringMatching(
        /^zod's locale "fr" is not in this bundle: .*z\.config\(z\.locales\.fr\(\)\)/,
      ),
    },
  });
});

it('keeps them when a file names them', async () => {
  const bundle = await buildBundle(`${FIXTURES}zod-locales/translated.ts`);
  const envelope = await invokeBundle(runtime, { bundle, versionId: 'zod-translated', actionName: 'french' });
  expect(envelope).toMatchObject({ ok: true, data: { message: expect.stringMatching(/attendu/) } });
});
