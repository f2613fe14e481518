import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { payloadFitsShape, readPayloadShape } from './payloadFit.js';
import {
  PAYLOAD_SHAPE_MAX_DEPTH,
  PAYLOAD_SHAPE_MAX_NODES,
  type PayloadShape,
  payloadShapeOf,
} from './payloadShape.js';

const PROTO_KEY = JSON.parse('{"__proto__": {"id": 1}, "id": "x"}');
const TRICKY: unknown[] = ['ü😀', PROTO_KEY];

// Values a JSON body can parse to, tricky ones included: what every shape is compared on.
const VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  2.5,
  3,
  2 ** 31,
  2 ** 53,
  -(2 ** 31) - 1,
  Number.POSITIVE_INFINITY, // JSON.parse('1e400')
  '',
  'a',
  'abc',
  'abcdef',
  'ü😀',
  '  ',
  [],
  [1],
  ['a', 'b'],
  [1, 'a'],
  {},
  { id: 'x' },
  { id: 1 },
  { id: 'x', extra: true },
  { id: 'x', kind: 'a', n: 1 },
  { id: 'x', kind: 'b', flag: true },
  { id: 'x', kind: 'c' },
  { id: null },
  { id: 'x', tags: ['a', 'b'] },
  { id: 'x', tags: [] },
  { id: 'x', tags: [1] },
  { id: 'x', meta: { a: 1, b: 2 } },
  { id: 'x', meta: { a: 'no' } },
  { id: 'x', note: null },
  { id: 'x', note: 'n' },
  PROTO_KEY,
  { constructor: 'c', id: 'x' },
];

// Schemas a shape states exactly: over VALUES, the shape fits where the schema accepts.
const EXACT: Record<string, z.ZodType> = {
  string: z.string(),
  'string lengths': z.string().min(1).max(3),
  'string length': z.string().length(3),
  number: z.number(),
  int: z.number().int(),
  'z.int': z.int(),
  int32: z.int32(),
  uint32: z.uint32(),
  bounds: z.number().gt(0).lte(3),
  'bounds inclusive': z.number().min(-1).max(2.5),
  positive: z.number().positive(),
  boolean: z.boolean(),
  null: z.null(),
  unknown: z.unknown(),
  any: z.any(),
  never: z.never(),
  literal: z.literal('a'),
  literals: z.literal(['a', 1, true, null]),
  enum: z.enum(['a', 'abc']),
  array: z
    .array(z.union([z.string(), z.number()]))
    .min(1)
    .max(2),
  object: z.object({ id: z.string() }),
  'object, optional keys': z.object({ id: z.string(), note: z.string().nullable().optional() }),
  'strict object': z.strictObject({ id: z.string() }),
  'loose object': z.looseObject({ id: z.string() }),
  catchall: z.object({ id: z.string() }).catchall(z.boolean()),
  record: z.object({ id: z.string(), meta: z.record(z.string(), z.number()).optional() }),
  'default and readonly': z.object({
    id: z.string().default('d'),
    tags: z.array(z.string()).readonly().optional(),
  }),
  union: z.union([z.object({ id: z.number() }), z.object({ id: z.string(), kind: z.literal('a') })]),
  'discriminated union': z.discriminatedUnion('kind', [
    z.object({ id: z.string(), kind: z.literal('a'), n: z.number() }),
    z.object({ id: z.string(), kind: z.literal('b'), flag: z.boolean() }),
  ]),
  nullish: z.string().nullish(),
  'code point lengths': z.object({ id: z.string().min(2).max(2) }).or(z.string().min(2).max(3)),
  'unknown key': z.object({ constructor: z.unknown(), id: z.string() }),
};

// Schemas no shape can state exactly or more strictly: checked in the isolate.
const UNSTATED: Record<string, unknown> = {
  refine: z.object({ id: z.string() }).refine((value) => value.id !== 'x'),
  'refine on a key': z.object({ id: z.string().refine((id) => id.length > 1) }),
  transform: z.string().transform((value) => value.length),
  pipe: z.string().pipe(z.string()),
  email: z.email(),
  'string format': z.string().email(),
  regex: z.string().regex(/^a+$/),
  startsWith: z.string().startsWith('a'),
  trim: z.string().trim().min(1),
  lowercase: z.string().toLowerCase(),
  coerce: z.coerce.number(),
  catch: z.string().catch('x'),
  prefault: z.string().prefault('x'),
  multipleOf: z.number().multipleOf(2),
  float32: z.float32(),
  lazy: z.lazy(() => z.string()),
  tuple: z.tuple([z.string()]),
  intersection: z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })),
  xor: z.xor([z.string(), z.number()]),
  'numeric enum': z.enum({ A: 1, B: 2 }),
  'enum-keyed record': z.record(z.enum(['a', 'b']), z.number()),
  'record key with a check': z.record(z.string().min(2), z.number()),
  'zod 3': z3.object({ id: z3.string() }),
  'not a schema': { type: 'object' },
  undefined: undefined,
  'discriminator that may be missing': z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('a').optional() }),
    z.object({ kind: z.literal('b') }),
  ]),
  bigint: z.bigint(),
  date: z.date(),
  'literal undefined': z.literal(undefined),
};

describe('payloadShapeOf', () => {
  it.each(Object.entries(EXACT))('states %s: the shape fits only where the schema accepts', (_, schema) => {
    const shape = payloadShapeOf(schema);
    expect(shape).toBeDefined();
    // As stored: through a manifest's JSON and read back on the host.
    const read = readPayloadShape(JSON.parse(JSON.stringify(shape)));
    expect(read).toEqual(shape);
    for (const value of VALUES) {
      const fits = payloadFitsShape(read!, value);
      const accepted = schema.safeParse(value).success;
      // Never laxer than the schema; and exact but where zod versions differ (string lengths in
      // code points or UTF-16 units) or a key is named __proto__ (stricter here).
      if (fits) expect([value, accepted]).toEqual([value, true]);
      if (!TRICKY.includes(value)) expect([value, fits]).toEqual([value, accepted]);
    }
  });

  it.each(Object.entries(UNSTATED))('gives no shape for %s', (_, schema) => {
    expect(payloadShapeOf(schema)).toBeUndefined();
  });

  it('gives no shape past its depth or node bounds, nor for a recursive schema', () => {
    let deep: z.ZodType = z.string();
    for (let i = 0; i <= PAYLOAD_SHAPE_MAX_DEPTH; i += 1) deep = z.object({ next: deep });
    expect(payloadShapeOf(deep)).toBeUndefined();
    const wide = z.object(
      Object.fromEntries(Array.from({ length: PAYLOAD_SHAPE_MAX_NODES }, (_, i) => [`k${i}`, z.string()])),
    );
    expect(payloadShapeOf(wide)).toBeUndefined();
    const Node: z.ZodType = z.object({
      id: z.string(),
      get child() {
        return Node.optional();
      },
    });
    expect(payloadShapeOf(Node)).toBeUndefined();
  });

  it('keeps a key named __proto__ as a key', () => {
    const shape = payloadShapeOf(z.object({ ['__proto__']: z.string() }));
    expect(Object.keys((shape as { keys: object }).keys)).toEqual(['__proto__']);
  });
});

describe('readPayloadShape', () => {
  const ok: PayloadShape = { t: 'object', keys: { id: { t: 'string', min: 1 } }, rest: 'strip' };

  it('reads a well-formed shape and refuses anything else', () => {
    expect(readPayloadShape(ok)).toBe(ok);
    expect(readPayloadShape(undefined)).toBeUndefined();
    for (const bad of [
      null,
      'string',
      { t: 'regex', pattern: '(a+)+$' },
      { t: 'string', min: 1, pattern: 'a' },
      { t: 'string', min: 'one' },
      { t: 'string', min: 1.5 },
      { t: 'number', gt: 'NaN' },
      { t: 'number', int: false },
      { t: 'literal', values: [{}] },
      { t: 'literal', values: 'a' },
      { t: 'object', keys: { id: { t: 'string' } }, rest: 'passthrough' },
      { t: 'object', keys: [], rest: 'strip' },
      { t: 'array', item: { t: 'nope' } },
      { t: 'union', options: {} },
      { t: 'optional' },
    ]) {
      expect(readPayloadShape(bad)).toBeUndefined();
    }
  });

  it('refuses a shape past its depth or node bounds', () => {
    let deep: PayloadShape = { t: 'any' };
    for (let i = 0; i <= PAYLOAD_SHAPE_MAX_DEPTH; i += 1) deep = { t: 'optional', inner: deep };
    expect(readPayloadShape(deep)).toBeUndefined();
    const wide = {
      t: 'union',
      options: Array.from({ length: PAYLOAD_SHAPE_MAX_NODES }, () => ({ t: 'null' })),
    };
    expect(readPayloadShape(wide)).toBeUndefined();
    // Literal values count as nodes: a check compares a value with each.
    const values = Array.from({ length: 1_000 }, (_, i) => `v${i}`);
    expect(readPayloadShape({ t: 'literal', values })).toBeDefined();
    expect(
      readPayloadShape({
        t: 'union',
        options: [
          { t: 'literal', values },
          { t: 'literal', values },
        ],
      }),
    ).toBeUndefined();
    expect(payloadShapeOf(z.union([z.enum(values as [string]), z.enum(values as [string])]))).toBeUndefined();
  });
});

describe('payloadFitsShape', () => {
  it('gives up (does not fit) past its step budget', () => {
    const shape: PayloadShape = {
      t: 'array',
      item: { t: 'union', options: [{ t: 'null' }, { t: 'number' }] },
    };
    const items = Array.from({ length: 60_000 }, (_, i) => i);
    expect(payloadFitsShape(shape, items)).toBe(false);
    expect(payloadFitsShape(shape, items, 1_000_000)).toBe(true);
    expect(payloadFitsShape(shape, items.slice(0, 100))).toBe(true);
    // Literals compared and keys walked count too.
    const many = Array.from({ length: 1_000 }, (_, i) => i);
    const literals: PayloadShape = { t: 'array', item: { t: 'literal', values: many } };
    expect(
      payloadFitsShape(
        literals,
        Array.from({ length: 200 }, () => 999),
      ),
    ).toBe(false);
    expect(payloadFitsShape(literals, [999])).toBe(true);
    const withRest: PayloadShape = { t: 'object', keys: {}, rest: { t: 'any' } };
    expect(payloadFitsShape(withRest, Object.fromEntries(many.map((i) => [`k${i}`, i])), 500)).toBe(false);
    expect(payloadFitsShape(withRest, { a: 1 }, 500)).toBe(true);
  });

  it('reads a key as the schema does, inherited properties included', () => {
    const shape = payloadShapeOf(z.object({ constructor: z.string().optional() }))!;
    // `{}` inherits a function named constructor: the schema refuses it, and the shape does not fit.
    expect(z.object({ constructor: z.string().optional() }).safeParse({}).success).toBe(false);
    expect(payloadFitsShape(shape, {})).toBe(false);
    expect(payloadFitsShape(shape, { constructor: 'c' })).toBe(true);
  });
});
