/**
 * A webhook payload schema restated as data, so the host can accept a delivery without entering
 * the partner's isolate: `payloadShapeOf` reads a zod 4 schema's definition inside the isolate (at
 * describe time, into the manifest) and answers a shape only when every part of the schema is one
 * it can state exactly or more strictly (types, lengths, bounds, literals, enums, objects, arrays,
 * records, unions, optional, nullable, default); a refinement, transform, format, pattern, coercion
 * or anything unknown gives no shape. On the host (`payloadFit.ts`), `readPayloadShape` checks the
 * shape (it came from partner code: bounded in size and depth, every node known) and
 * `payloadFitsShape` answers whether a parsed body fits it, within a step budget.
 *
 * Only "fits" is relied on: a shape is never laxer than its schema, so a body that fits passes the
 * schema too. A body that does not fit, a shape that is missing or unreadable, or a budget run out
 * all go to the isolate, whose schema decides and words the issues. A shape that lies (hostile
 * partner code) can only let its own integration's deliveries in: the handler's run validates the
 * body with the schema again (`deliverWebhook`).
 */
export type PayloadShape =
  | { readonly t: 'any' }
  | { readonly t: 'never' }
  | { readonly t: 'null' }
  | { readonly t: 'boolean' }
  | { readonly t: 'string'; readonly min?: number; readonly max?: number }
  | {
      readonly t: 'number';
      /** Bounds, each inclusive (`gte`, `lte`) or exclusive (`gt`, `lt`). */
      readonly gt?: number;
      readonly gte?: number;
      readonly lt?: number;
      readonly lte?: number;
      /** A safe integer. */
      readonly int?: true;
    }
  | { readonly t: 'literal'; readonly values: readonly (string | number | boolean | null)[] }
  | {
      readonly t: 'object';
      readonly keys: Readonly<Record<string, PayloadShape>>;
      /** Keys not in `keys`: allowed (`strip`), refused (`strict`), or each value of this shape. */
      readonly rest: 'strip' | 'strict' | PayloadShape;
    }
  | { readonly t: 'array'; readonly item: PayloadShape; readonly min?: number; readonly max?: number }
  | { readonly t: 'record'; readonly value: PayloadShape }
  | { readonly t: 'optional'; readonly inner: PayloadShape }
  | { readonly t: 'nullable'; readonly inner: PayloadShape }
  | { readonly t: 'union'; readonly options: readonly PayloadShape[] };

/** Nodes in one shape at most, and its depth: a larger schema is checked in the isolate. */
export const PAYLOAD_SHAPE_MAX_NODES = 2_000;
export const PAYLOAD_SHAPE_MAX_DEPTH = 32;

// ---- In the isolate: a zod 4 schema's definition, as a shape ----------------------------------

interface ZodDef {
  readonly type?: unknown;
  readonly checks?: readonly { readonly _zod?: { readonly def?: Record<string, unknown> } }[];
  readonly [key: string]: unknown;
}

class Unstated extends Error {}

const defOf = (schema: unknown): ZodDef => {
  const def = (schema as { _zod?: { def?: ZodDef } } | null)?._zod?.def;
  if (typeof def !== 'object' || def === null) throw new Unstated();
  return def;
};

/** The definition's own keys must all be among `allowed` (`error` words a message: always allowed). */
function only(def: ZodDef, allowed: readonly string[]): void {
  for (const key of Object.keys(def)) {
    if (key !== 'error' && !allowed.includes(key)) throw new Unstated();
  }
}

/** A number that is not NaN or infinite (what JSON can carry). */
export const finite = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** Length checks (strings and arrays): `min_length`, `max_length`, `length_equals`; anything else is unstated. */
function lengthChecks(def: ZodDef): { min?: number; max?: number } {
  const out: { min?: number; max?: number } = {};
  const bound = (value: unknown): number => {
    if (!Number.isSafeInteger(value) || (value as number) < 0) throw new Unstated();
    return value as number;
  };
  const atLeast = (n: number) => {
    out.min = Math.max(out.min ?? 0, n);
  };
  const atMost = (n: number) => {
    out.max = Math.min(out.max ?? n, n);
  };
  for (const check of def.checks ?? []) {
    const c = check._zod?.def;
    if (c?.check === 'min_length') atLeast(bound(c.minimum));
    else if (c?.check === 'max_length') atMost(bound(c.maximum));
    else if (c?.check === 'length_equals') {
      atLeast(bound(c.length));
      atMost(bound(c.length));
    } else throw new Unstated();
  }
  return out;
}

const INT_FORMATS: Readonly<Record<string, readonly [number, number]>> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2_147_483_648, 2_147_483_647],
  uint32: [0, 4_294_967_295],
};

function numberShape(def: ZodDef): PayloadShape {
  const shape: { t: 'number'; gt?: number; gte?: number; lt?: number; lte?: number; int?: true } = {
    t: 'number',
  };
  const format = (name: unknown) => {
    const range =
      typeof name === 'string' && Object.hasOwn(INT_FORMATS, name) ? INT_FORMATS[name] : undefined;
    if (range === undefined) throw new Unstated();
    shape.int = true;
    shape.gte = Math.max(shape.gte ?? range[0], range[0]);
    shape.lte = Math.min(shape.lte ?? range[1], range[1]);
  };
  if (def.format !== undefined) {
    // `z.int()` and kin: the schema is its own format check.
    only(def, ['type', 'checks', 'check', 'abort', 'format']);
    format(def.format);
  } else {
    only(def, ['type', 'checks']);
  }
  for (const check of def.checks ?? []) {
    const c = check._zod?.def;
    if (c?.check === 'number_format') format(c.format);
    else if ((c?.check === 'greater_than' || c?.check === 'less_than') && finite(c.value)) {
      const key =
        c.check === 'greater_than'
          ? c.inclusive === true
            ? 'gte'
            : 'gt'
          : c.inclusive === true
            ? 'lte'
            : 'lt';
      const current = shape[key];
      shape[key] =
        current === undefined
          ? c.value
          : key.startsWith('g')
            ? Math.max(current, c.value)
            : Math.min(current, c.value);
    } else throw new Unstated();
  }
  return shape;
}

function shapeOf(schema: unknown, depth: number, count: { nodes: number }): PayloadShape {
  count.nodes += 1;
  if (depth > PAYLOAD_SHAPE_MAX_DEPTH || count.nodes > PAYLOAD_SHAPE_MAX_NODES) throw new Unstated();
  const def = defOf(schema);
  const inner = (child: unknown) => shapeOf(child, depth + 1, count);
  const noChecks = () => {
    if ((def.checks ?? []).length > 0) throw new Unstated();
  };
  switch (def.type) {
    case 'any':
    case 'unknown':
    case 'never':
    case 'null':
    case 'boolean':
      only(def, ['type', 'checks']);
      noChecks();
      return { t: def.type === 'unknown' ? 'any' : def.type };
    case 'string':
      // A format (email, uuid, regex ...) or coercion has no place in a shape: unstated.
      only(def, ['type', 'checks']);
      return { t: 'string', ...lengthChecks(def) };
    case 'number':
      return numberShape(def);
    case 'literal': {
      only(def, ['type', 'values', 'checks']);
      noChecks();
      const values = def.values;
      if (
        !Array.isArray(values) ||
        !values.every((v) => v === null || ['string', 'boolean'].includes(typeof v) || finite(v))
      )
        throw new Unstated();
      count.nodes += values.length;
      return { t: 'literal', values: [...values] };
    }
    case 'enum': {
      only(def, ['type', 'entries', 'checks']);
      noChecks();
      const entries = def.entries;
      if (typeof entries !== 'object' || entries === null) throw new Unstated();
      const values = Object.values(entries);
      // A numeric (native) enum's entries hold reverse mappings: unstated rather than guessed.
      if (!values.every((v) => typeof v === 'string')) throw new Unstated();
      count.nodes += values.length;
      return { t: 'literal', values };
    }
    case 'object': {
      only(def, ['type', 'shape', 'catchall', 'checks']);
      noChecks();
      if (typeof def.shape !== 'object' || def.shape === null) throw new Unstated();
      const keys: Record<string, PayloadShape> = {};
      for (const key of Object.keys(def.shape)) {
        Object.defineProperty(keys, key, {
          value: inner((def.shape as Record<string, unknown>)[key]),
          enumerable: true,
        });
      }
      // No catchall strips other keys; `never` refuses them; `unknown` (a loose object) takes any,
      // which is the same verdict as stripping them and walks no keys.
      const catchall = def.catchall === undefined ? undefined : inner(def.catchall);
      const rest: PayloadShape | 'strip' | 'strict' =
        catchall === undefined || catchall.t === 'any'
          ? 'strip'
          : catchall.t === 'never'
            ? 'strict'
            : catchall;
      return { t: 'object', keys, rest };
    }
    case 'array':
      only(def, ['type', 'element', 'checks']);
      return { t: 'array', item: inner(def.element), ...lengthChecks(def) };
    case 'record': {
      only(def, ['type', 'keyType', 'valueType', 'checks']);
      noChecks();
      // Only string keys without checks: an enum or literal key makes a record exhaustive.
      const key = defOf(def.keyType);
      only(key, ['type', 'checks']);
      if (key.type !== 'string' || (key.checks ?? []).length > 0) throw new Unstated();
      return { t: 'record', value: inner(def.valueType) };
    }
    case 'optional':
    case 'nullable':
      only(def, ['type', 'innerType', 'checks']);
      noChecks();
      return { t: def.type, inner: inner(def.innerType) };
    case 'default':
      // A missing value takes the default without a check; anything else goes to the inner schema.
      only(def, ['type', 'innerType', 'defaultValue', 'checks']);
      noChecks();
      return { t: 'optional', inner: inner(def.innerType) };
    case 'readonly':
      only(def, ['type', 'innerType', 'checks']);
      noChecks();
      return inner(def.innerType);
    case 'union': {
      only(def, ['type', 'options', 'discriminator', 'inclusive', 'checks']);
      noChecks();
      if (!Array.isArray(def.options)) throw new Unstated();
      const options = def.options.map(inner);
      if (def.discriminator === undefined) {
        // `inclusive: false` (z.xor: exactly one option) is not "any option": unstated.
        if (def.inclusive === false) throw new Unstated();
      } else {
        // A discriminated union runs only the option its discriminator names: "any option fits"
        // says the same only when each option requires its own literal values there.
        const seen: unknown[] = [];
        for (const option of options) {
          const tag = option.t === 'object' ? option.keys[def.discriminator as string] : undefined;
          if (tag?.t !== 'literal' || tag.values.some((value) => seen.includes(value))) throw new Unstated();
          seen.push(...tag.values);
        }
      }
      return { t: 'union', options };
    }
    default:
      throw new Unstated();
  }
}

/**
 * The shape of a webhook's payload schema, or undefined when it cannot be stated exactly or more
 * strictly (not zod 4, a refinement, transform, string format, pattern, coercion, preprocess, a lazy
 * or recursive schema, a tuple, intersection ...). Runs in the isolate, at describe time.
 * @example payloadShapeOf(z.object({ id: z.string() })) // { t: 'object', keys: { id: { t: 'string' } }, rest: 'strip' }
 */
export function payloadShapeOf(schema: unknown): PayloadShape | undefined {
  try {
    const count = { nodes: 0 };
    const shape = shapeOf(schema, 0, count);
    return count.nodes <= PAYLOAD_SHAPE_MAX_NODES ? shape : undefined;
  } catch {
    return undefined;
  }
}
