import type { DefinitionManifest } from '@platform/sdk/runtime';
import type { Review } from '@platform/wire';

/**
 * What a gated version widens against the live version: what an admin reviews before promoting.
 * The shape is the wire contract's (`@platform/wire` `reviewSchema`): the routes answer it as is.
 */
export type { Review };

const EFFECT_RANK = { read: 0, write: 1, destructive: 2 } as const;
const SENSITIVITY_RANK = { low: 0, medium: 1, high: 2 } as const;

const added = (next: readonly string[], prev: readonly string[]) => next.filter((x) => !prev.includes(x));

/** Compares a candidate's manifest with the live one's. */
export function reviewManifest(
  next: DefinitionManifest,
  live: { number: number; manifest: DefinitionManifest } | undefined,
): Review {
  const prev = live?.manifest;
  const egress = {
    added: added(next.egress, prev?.egress ?? []),
    removed: added(prev?.egress ?? [], next.egress),
  };
  const nextScopes = next.oauth?.provider.scopes ?? [];
  const prevScopes = prev?.oauth?.provider.scopes ?? [];
  const oauthScopes = { added: added(nextScopes, prevScopes), removed: added(prevScopes, nextScopes) };
  const tools: Review['tools'][number][] = [];
  const prevTools = new Set(prev?.tools.map((tool) => tool.name) ?? []);
  for (const tool of next.tools) {
    if (!prevTools.has(tool.name)) {
      tools.push({ name: tool.name, change: 'added' });
      continue;
    }
    const was = prev?.proposes?.tools?.[tool.name];
    const is = next.proposes?.tools?.[tool.name];
    if (was && is && EFFECT_RANK[is.effect] > EFFECT_RANK[was.effect])
      tools.push({ name: tool.name, change: 'effect', from: was.effect, to: is.effect });
    if (was && is && SENSITIVITY_RANK[is.sensitivity] > SENSITIVITY_RANK[was.sensitivity])
      tools.push({ name: tool.name, change: 'sensitivity', from: was.sensitivity, to: is.sensitivity });
  }
  const storage: Review['storage'][number][] = [];
  for (const scope of ['account', 'user'] as const) {
    for (const key of added(prev?.storage[scope] ?? [], next.storage[scope]))
      storage.push({ scope, key, change: 'removed' });
    const nextShapes = next.storageShapes?.[scope] ?? {};
    const prevShapes = prev?.storageShapes?.[scope] ?? {};
    for (const key of next.storage[scope]) {
      const was = prevShapes[key];
      const is = nextShapes[key];
      if (was !== undefined && is !== undefined && !readsOldData(was, is))
        storage.push({ scope, key, change: 'changed' });
    }
  }
  return {
    againstVersion: live?.number ?? null,
    egress,
    oauthScopes,
    tools,
    storage,
    widens: egress.added.length + oauthScopes.added.length + tools.length + storage.length > 0,
  };
}

type JsonSchema = {
  readonly type?: unknown;
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: unknown;
  readonly items?: unknown;
  readonly [key: string]: unknown;
};

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether data stored under the `was` shape still fits `is` (both JSON Schemas), judged
 * conservatively: equal shapes; objects whose new required properties were already required,
 * whose shared properties stay compatible, and which accept every old property; arrays of
 * compatible items. Anything else that differs counts as breaking.
 */
export function readsOldData(was: unknown, is: unknown): boolean {
  if (JSON.stringify(was) === JSON.stringify(is)) return true;
  if (!isObject(was) || !isObject(is)) return false;
  const { $schema: _a, ...wasRest } = was;
  const { $schema: _b, ...isRest } = is;
  if (JSON.stringify(wasRest) === JSON.stringify(isRest)) return true;
  if (JSON.stringify(was.type) !== JSON.stringify(is.type)) return false;
  if (was.type === 'object') {
    const wasRequired = new Set(was.required ?? []);
    if ((is.required ?? []).some((name) => !wasRequired.has(name))) return false;
    const wasProps = was.properties ?? {};
    const isProps = is.properties ?? {};
    for (const [name, shape] of Object.entries(wasProps)) {
      if (name in isProps) {
        if (!readsOldData(shape, isProps[name])) return false;
      } else if (is.additionalProperties === false) return false;
    }
    const rest = (schema: JsonSchema) => {
      const { properties: _p, required: _r, additionalProperties: _x, $schema: _s, ...others } = schema;
      return JSON.stringify(others);
    };
    return rest(was) === rest(is);
  }
  if (was.type === 'array') {
    const { items: wasItems, ...wasOthers } = wasRest;
    const { items: isItems, ...isOthers } = isRest;
    return JSON.stringify(wasOthers) === JSON.stringify(isOthers) && readsOldData(wasItems, isItems);
  }
  return false;
}
