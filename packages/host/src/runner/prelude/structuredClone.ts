// structuredClone for the values partner code clones: plain data, Date, RegExp, Map, Set, bytes, cycles.
// Kept our own: core-js-pure's structuredClone (3.51.0) returns core-js-pure's wrapped Map and Set
// (the pure build never hands out natives), so `clone instanceof Map` is false in the isolate.
import { DOMException } from './coreJs.js';

export function structuredClone(value) {
  const seen = new Map();
  const clone = (input) => {
    if (typeof input === 'function' || typeof input === 'symbol') {
      throw new DOMException(`${String(input)} could not be cloned.`, 'DataCloneError');
    }
    if (input === null || typeof input !== 'object') return input;
    if (seen.has(input)) return seen.get(input);
    let out;
    if (input instanceof Date) out = new Date(input.getTime());
    else if (input instanceof RegExp) out = new RegExp(input.source, input.flags);
    else if (input instanceof ArrayBuffer) out = input.slice(0);
    else if (ArrayBuffer.isView(input)) {
      // the whole buffer, shared by views of it, as the spec clones it
      const length = input instanceof DataView ? input.byteLength : input.length;
      out = new input.constructor(clone(input.buffer), input.byteOffset, length);
    } else if (input instanceof Map) {
      out = new Map();
      seen.set(input, out);
      for (const [key, entry] of input) out.set(clone(key), clone(entry));
      return out;
    } else if (input instanceof Set) {
      out = new Set();
      seen.set(input, out);
      for (const entry of input) out.add(clone(entry));
      return out;
    } else if (input instanceof Error) {
      out = new input.constructor(input.message);
    } else {
      out = Array.isArray(input) ? [] : {};
      seen.set(input, out);
      for (const key of Object.keys(input)) out[key] = clone(input[key]);
      return out;
    }
    seen.set(input, out);
    return out;
  };
  return clone(value);
}
