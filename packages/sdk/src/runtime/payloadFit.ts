import {
  finite,
  PAYLOAD_SHAPE_MAX_DEPTH,
  PAYLOAD_SHAPE_MAX_NODES,
  type PayloadShape,
} from './payloadShape.js';

// On the host: a webhook payload shape read from a manifest (it came from partner code: checked
// for size, depth and known nodes), and whether a parsed body fits it within a step budget. The
// shape itself, and how the isolate states a zod schema as one, are payloadShape.ts's.

/** Steps (a shape node visited, a literal compared, a key walked) one fit check may take before it gives up. */
export const PAYLOAD_FIT_MAX_STEPS = 100_000;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every own key of `node` among `keys`. */
const keysWithin = (node: Record<string, unknown>, keys: readonly string[]) =>
  Object.keys(node).every((key) => keys.includes(key));

const length = (value: unknown) => value === undefined || Number.isSafeInteger(value);
const bound = (value: unknown) => value === undefined || finite(value);

function readNode(raw: unknown, depth: number, count: { nodes: number }): boolean {
  count.nodes += 1;
  if (depth > PAYLOAD_SHAPE_MAX_DEPTH || count.nodes > PAYLOAD_SHAPE_MAX_NODES || !isRecord(raw))
    return false;
  const child = (value: unknown) => readNode(value, depth + 1, count);
  switch (raw.t) {
    case 'any':
    case 'never':
    case 'null':
    case 'boolean':
      return keysWithin(raw, ['t']);
    case 'string':
      return keysWithin(raw, ['t', 'min', 'max']) && length(raw.min) && length(raw.max);
    case 'number':
      return (
        keysWithin(raw, ['t', 'gt', 'gte', 'lt', 'lte', 'int']) &&
        bound(raw.gt) &&
        bound(raw.gte) &&
        bound(raw.lt) &&
        bound(raw.lte) &&
        (raw.int === undefined || raw.int === true)
      );
    case 'literal':
      // Each value counts as a node: a check compares a body's value with every one of them.
      count.nodes += Array.isArray(raw.values) ? raw.values.length : 0;
      return (
        keysWithin(raw, ['t', 'values']) &&
        Array.isArray(raw.values) &&
        count.nodes <= PAYLOAD_SHAPE_MAX_NODES &&
        raw.values.every((v) => v === null || typeof v === 'string' || typeof v === 'boolean' || finite(v))
      );
    case 'object':
      return (
        keysWithin(raw, ['t', 'keys', 'rest']) &&
        isRecord(raw.keys) &&
        Object.values(raw.keys).every(child) &&
        (raw.rest === 'strip' || raw.rest === 'strict' || child(raw.rest))
      );
    case 'array':
      return (
        keysWithin(raw, ['t', 'item', 'min', 'max']) && length(raw.min) && length(raw.max) && child(raw.item)
      );
    case 'record':
      return keysWithin(raw, ['t', 'value']) && child(raw.value);
    case 'optional':
    case 'nullable':
      return keysWithin(raw, ['t', 'inner']) && child(raw.inner);
    case 'union':
      return keysWithin(raw, ['t', 'options']) && Array.isArray(raw.options) && raw.options.every(child);
    default:
      return false;
  }
}

/**
 * A shape as read from a stored manifest (partner code wrote it): the shape when every node is
 * well formed and it is within the size and depth bounds, else undefined (check in the isolate).
 * @example const shape = readPayloadShape(manifest.webhooks[0].payloadShape);
 */
export function readPayloadShape(raw: unknown): PayloadShape | undefined {
  const count = { nodes: 0 };
  return raw !== undefined && readNode(raw, 0, count) && count.nodes <= PAYLOAD_SHAPE_MAX_NODES
    ? (raw as PayloadShape)
    : undefined;
}

class OutOfSteps extends Error {}

/** Whether `text` has at least `min` code points (never fewer than half its UTF-16 units). */
function codePointsAtLeast(text: string, min: number): boolean {
  if (text.length < min) return false;
  if (text.length >= min * 2) return true;
  let count = 0;
  for (const _ of text) count += 1;
  return count >= min;
}

/** Charges `steps` to the budget: one per node visited, per literal compared and per key walked. */
function spend(budget: { steps: number }, steps: number): void {
  budget.steps -= steps;
  if (budget.steps < 0) throw new OutOfSteps();
}

function fits(shape: PayloadShape, value: unknown, budget: { steps: number }): boolean {
  spend(budget, 1);
  switch (shape.t) {
    case 'any':
      return true;
    case 'never':
      return false;
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      // zod 4 counts code points (4.6) or UTF-16 units (earlier): a string fits only when it passes in both.
      return (
        typeof value === 'string' &&
        (shape.min === undefined || codePointsAtLeast(value, shape.min)) &&
        (shape.max === undefined || value.length <= shape.max)
      );
    case 'number':
      return (
        finite(value) &&
        (shape.int !== true || Number.isSafeInteger(value)) &&
        (shape.gt === undefined || value > shape.gt) &&
        (shape.gte === undefined || value >= shape.gte) &&
        (shape.lt === undefined || value < shape.lt) &&
        (shape.lte === undefined || value <= shape.lte)
      );
    case 'literal':
      spend(budget, shape.values.length);
      return shape.values.includes(value as string);
    case 'object': {
      if (!isRecord(value)) return false;
      for (const key of Object.keys(shape.keys)) {
        // Read as the schema reads it (an inherited property included): a shape never says yes where it would say no.
        if (!fits(shape.keys[key]!, (value as Record<string, unknown>)[key], budget)) return false;
      }
      if (shape.rest === 'strip') return true;
      const own = Object.keys(value);
      spend(budget, own.length);
      for (const key of own) {
        if (Object.hasOwn(shape.keys, key)) continue;
        if (shape.rest === 'strict' || !fits(shape.rest, value[key], budget)) return false;
      }
      return true;
    }
    case 'array':
      return (
        Array.isArray(value) &&
        (shape.min === undefined || value.length >= shape.min) &&
        (shape.max === undefined || value.length <= shape.max) &&
        value.every((item) => fits(shape.item, item, budget))
      );
    case 'record':
      return isRecord(value) && Object.keys(value).every((key) => fits(shape.value, value[key], budget));
    case 'optional':
      return value === undefined || fits(shape.inner, value, budget);
    case 'nullable':
      return value === null || fits(shape.inner, value, budget);
    case 'union':
      return shape.options.some((option) => fits(option, value, budget));
  }
}

/**
 * Whether a parsed body fits a shape: true only when the schema the shape was read from accepts it
 * too; false when it does not fit or the check ran past `maxSteps` (ask the schema then).
 * @example payloadFitsShape({ t: 'object', keys: { id: { t: 'string' } }, rest: 'strip' }, { id: 'evt_1' }) // true
 */
export function payloadFitsShape(
  shape: PayloadShape,
  value: unknown,
  maxSteps = PAYLOAD_FIT_MAX_STEPS,
): boolean {
  try {
    return fits(shape, value, { steps: maxSteps });
  } catch (error) {
    if (error instanceof OutOfSteps) return false;
    throw error;
  }
}
