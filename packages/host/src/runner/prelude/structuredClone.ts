// structuredClone for the values partner code clones: plain data, Date, RegExp, Map, Set, bytes, cycles.
// Kept our own: core-js-pure's structuredClone (3.51.0) returns core-js-pure's wrapped Map and Set
// (the pure build never hands out natives), so `clone instanceof Map` is false in the isolate.
import { DOMException } from './coreJs.js';

// A typed array's or DataView's constructor, as a clone calls it (buffer, offset, length).
type ViewConstructor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => ArrayBufferView;

export function structuredClone<T>(value: T): T {
  const seen = new Map<object, unknown>();
  const clone = (input: unknown): unknown => {
    if (typeof input === 'function' || typeof input === 'symbol') {
      throw new DOMException(`${String(input)} could not be cloned.`, 'DataCloneError');
    }
    if (input === null || typeof input !== 'object') return input;
    if (seen.has(input)) return seen.get(input);
    let out: unknown;
    if (input instanceof Date) out = new Date(input.getTime());
    else if (input instanceof RegExp) out = new RegExp(input.source, input.flags);
    else if (input instanceof ArrayBuffer) out = input.slice(0);
    else if (ArrayBuffer.isView(input)) {
      // the whole buffer, shared by views of it, as the spec clones it
      const length = input instanceof DataView ? input.byteLength : (input as Uint8Array).length;
      const View = input.constructor as ViewConstructor;
      out = new View(clone(input.buffer) as ArrayBufferLike, input.byteOffset, length);
    } else if (input instanceof Map) {
      const map = new Map<unknown, unknown>();
      seen.set(input, map);
      for (const [key, entry] of input) map.set(clone(key), clone(entry));
      return map;
    } else if (input instanceof Set) {
      const set = new Set<unknown>();
      seen.set(input, set);
      for (const entry of input) set.add(clone(entry));
      return set;
    } else if (input instanceof Error) {
      out = new (input.constructor as ErrorConstructor)(input.message);
    } else {
      const copy: Record<string, unknown> = Array.isArray(input)
        ? ([] as unknown as Record<string, unknown>)
        : {};
      const source = input as Record<string, unknown>;
      seen.set(input, copy);
      for (const key of Object.keys(source)) copy[key] = clone(source[key]);
      return copy;
    }
    seen.set(input, out);
    return out;
  };
  return clone(value) as T;
}
