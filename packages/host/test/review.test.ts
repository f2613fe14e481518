// The promotion review: what a candidate widens against the live version, and whether stored data
// still reads under a storage key's new JSON Schema.
import type { DefinitionManifest } from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readsOldData, reviewManifest } from '../src/gate/review.js';

const shape = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input' });

const manifest = (over: Partial<DefinitionManifest> = {}): DefinitionManifest => ({
  slug: 'acme',
  egress: ['https://api.acme.test'],
  actions: [],
  webhooks: [],
  schedules: [],
  tools: [{ name: 'delete-note', description: 'Delete' }],
  widgets: [],
  storage: { account: ['settings', 'cache'], user: [] },
  proposes: { tools: { 'delete-note': { effect: 'write', sensitivity: 'low' } } },
  hasOnActivate: false,
  ...over,
});

describe('readsOldData', () => {
  const base = z.object({ workspace: z.string(), limit: z.number().optional() });
  it('accepts the same shape, a new optional field, and a field made optional', () => {
    expect(readsOldData(shape(base), shape(base))).toBe(true);
    expect(readsOldData(shape(base), shape(base.extend({ note: z.string().optional() })))).toBe(true);
    expect(
      readsOldData(
        shape(base),
        shape(z.object({ workspace: z.string().optional(), limit: z.number().optional() })),
      ),
    ).toBe(true);
  });
  it('refuses a new required field, a changed type, and a removed field under a strict shape', () => {
    expect(readsOldData(shape(base), shape(base.extend({ owner: z.string() })))).toBe(false);
    expect(
      readsOldData(shape(base), shape(z.object({ workspace: z.number(), limit: z.number().optional() }))),
    ).toBe(false);
    expect(readsOldData(shape(base), shape(z.strictObject({ workspace: z.string() })))).toBe(false);
    expect(readsOldData(shape(z.array(base)), shape(z.array(base.extend({ owner: z.string() }))))).toBe(
      false,
    );
  });
});

describe('reviewManifest', () => {
  it('lists everything new when nothing is live', () => {
    const review = reviewManifest(manifest(), undefined);
    expect(review).toMatchObject({
      againstVersion: null,
      egress: { added: ['https://api.acme.test'] },
      widens: true,
    });
  });
  it('names widened egress and scopes, raised tools, removed and incompatible storage', () => {
    const live = manifest({
      oauth: {
        provider: {
          authorizationUrl: 'https://a',
          tokenUrl: 'https://t',
          scopes: ['read'],
          pkce: true,
          tokenAuthMethod: 'client_secret_basic',
        },
        credentials: { clientIdSecretName: 'id', clientSecretSecretName: 'secret' },
      },
      storageShapes: { account: { settings: shape(z.object({ workspace: z.string() })) }, user: {} },
    });
    const next = manifest({
      egress: ['https://api.acme.test', 'https://files.acme.test'],
      oauth: { ...live.oauth!, provider: { ...live.oauth!.provider, scopes: ['read', 'write'] } },
      proposes: { tools: { 'delete-note': { effect: 'destructive', sensitivity: 'high' } } },
      storage: { account: ['settings'], user: [] },
      storageShapes: {
        account: { settings: shape(z.object({ workspace: z.string(), owner: z.string() })) },
        user: {},
      },
    });
    const review = reviewManifest(next, { number: 3, manifest: live });
    expect(review).toEqual({
      againstVersion: 3,
      egress: { added: ['https://files.acme.test'], removed: [] },
      oauthScopes: { added: ['write'], removed: [] },
      tools: [
        { name: 'delete-note', change: 'effect', from: 'write', to: 'destructive' },
        { name: 'delete-note', change: 'sensitivity', from: 'low', to: 'high' },
      ],
      storage: [
        { scope: 'account', key: 'cache', change: 'removed' },
        { scope: 'account', key: 'settings', change: 'changed' },
      ],
      widens: true,
    });
  });
  it('widens nothing when a version only narrows', () => {
    const review = reviewManifest(manifest({ egress: [] }), { number: 1, manifest: manifest() });
    expect(review).toMatchObject({
      egress: { added: [], removed: ['https://api.acme.test'] },
      widens: false,
    });
  });
});
