// crypto.subtle for the isolate: the part of Web Crypto integrations use, digests (SHA-1/256/384/512)
// and HMAC keys (importKey 'raw', generateKey, exportKey 'raw', sign, verify), computed by the
// runner's node:crypto through a synchronous bridge call that takes and returns base64 text. Keys
// stay in the isolate: a CryptoKey keeps its bytes in a WeakMap partner code cannot read unless the
// key is extractable. Everything else rejects with NotSupportedError naming what is supported.

import type { PlatformBridge } from './_isolateGlobals.js';
import { copyBytes, base64ToBytes as fromBase64, bytesToBase64 as toBase64 } from './bytes.js';
import { DOMException } from './coreJs.js';

type HashName = 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512';
type Usage = 'sign' | 'verify';
/** An algorithm as partner code names it: a string or an object with a name (HMAC's hash, length). */
type AlgorithmInput =
  | string
  | { readonly name?: unknown; readonly hash?: unknown; readonly length?: unknown };
/** A CryptoKey made here (makeKey): an HMAC key. */
interface HmacKey extends CryptoKey {
  readonly type: 'secret';
  readonly extractable: boolean;
  readonly algorithm: {
    readonly name: 'HMAC';
    readonly length: number;
    readonly hash: { readonly name: HashName };
  };
  readonly usages: readonly Usage[];
}

const HASHES: Readonly<Record<HashName, number>> = {
  'SHA-1': 512,
  'SHA-256': 512,
  'SHA-384': 1024,
  'SHA-512': 1024,
}; // block sizes in bits
const SUPPORTED =
  'the isolate supports digest (SHA-1, SHA-256, SHA-384, SHA-512) and HMAC keys (importKey "raw", generateKey, exportKey "raw", sign, verify)';

const keyBytes = new WeakMap<object, Uint8Array>();

export class CryptoKey {
  constructor() {
    throw new TypeError('Illegal constructor');
  }
  get [Symbol.toStringTag](): string {
    return 'CryptoKey';
  }
}

function makeKey(bytes: Uint8Array, hash: HashName, extractable: unknown, usages: readonly Usage[]): HmacKey {
  const key: HmacKey = Object.create(CryptoKey.prototype);
  Object.defineProperties(key, {
    type: { value: 'secret', enumerable: true },
    extractable: { value: Boolean(extractable), enumerable: true },
    algorithm: {
      value: Object.freeze({ name: 'HMAC', length: bytes.length * 8, hash: Object.freeze({ name: hash }) }),
      enumerable: true,
    },
    usages: { value: Object.freeze([...usages]), enumerable: true },
  });
  keyBytes.set(key, bytes);
  return Object.freeze(key);
}

function toBytes(data: unknown, what: string): Uint8Array {
  const bytes = copyBytes(data);
  if (bytes === undefined)
    throw new TypeError(`${what} must be an ArrayBuffer or a typed array (a BufferSource)`);
  return bytes;
}

function algorithmName(algorithm: unknown): string {
  const name =
    typeof algorithm === 'string'
      ? algorithm
      : (algorithm as Exclude<AlgorithmInput, string> | undefined)?.name;
  if (typeof name !== 'string') throw new TypeError('algorithm needs a name');
  return name.toUpperCase();
}

function isHash(name: string): name is HashName {
  return Object.hasOwn(HASHES, name);
}

function hashName(hash: unknown): HashName {
  if (hash === undefined) throw new TypeError('HMAC needs a hash (SHA-1, SHA-256, SHA-384 or SHA-512)');
  const name = algorithmName(hash);
  if (!isHash(name)) throw new DOMException(`Unrecognized hash "${name}": ${SUPPORTED}`, 'NotSupportedError');
  return name;
}

function hmacParams(algorithm: unknown): { hash: HashName; length: unknown } {
  if (algorithmName(algorithm) !== 'HMAC') {
    throw new DOMException(`Unrecognized algorithm name: ${SUPPORTED}`, 'NotSupportedError');
  }
  const { hash, length } = algorithm as Exclude<AlgorithmInput, string>;
  return { hash: hashName(hash), length };
}

function checkUsages(usages: Iterable<unknown>): Usage[] {
  const list = [...usages];
  if (list.length === 0) throw new DOMException('Usages cannot be empty when creating a key.', 'SyntaxError');
  for (const usage of list) {
    if (usage !== 'sign' && usage !== 'verify') {
      throw new DOMException('Unsupported key usage for an HMAC key', 'SyntaxError');
    }
  }
  return [...new Set(list as Usage[])];
}

function usableKey(key: HmacKey, usage: Usage): Uint8Array {
  const bytes = keyBytes.get(key);
  if (bytes === undefined) throw new TypeError('key must be a CryptoKey');
  if (!key.usages.includes(usage)) {
    throw new DOMException(`Unable to use this key to ${usage}`, 'InvalidAccessError');
  }
  return bytes;
}

// Rejections, not throws: every method of crypto.subtle answers with a promise.
const promised =
  <A extends unknown[], R>(method: (...args: A) => R) =>
  (...args: A): Promise<R> => {
    try {
      return Promise.resolve(method(...args));
    } catch (error) {
      return Promise.reject(error);
    }
  };

const unsupported = (name: string): (() => Promise<never>) =>
  promised(() => {
    throw new DOMException(`crypto.subtle.${name} is not available: ${SUPPORTED}`, 'NotSupportedError');
  });

/** The `crypto.subtle` object over the runner's `subtle(op, hash, keyBase64, dataBase64)` bridge call. */
export function createSubtle(
  bridge: PlatformBridge['subtle'],
  getRandomValues: (array: Uint8Array) => Uint8Array,
): Readonly<Record<string, (...args: never[]) => Promise<unknown>>> {
  const hmac = (hash: HashName, key: Uint8Array, data: Uint8Array): Uint8Array =>
    fromBase64(bridge('hmac', hash, toBase64(key), toBase64(data)));
  const sign = (algorithm: unknown, key: HmacKey, data: unknown): ArrayBufferLike => {
    if (algorithmName(algorithm) !== 'HMAC' || key?.algorithm?.name !== 'HMAC') {
      throw new DOMException(`Unrecognized algorithm name: ${SUPPORTED}`, 'NotSupportedError');
    }
    const bytes = usableKey(key, 'sign');
    return hmac(key.algorithm.hash.name, bytes, toBytes(data, 'data')).buffer;
  };
  const subtle: Record<string, (...args: never[]) => Promise<unknown>> = {
    digest: promised((algorithm: unknown, data: unknown) => {
      const name = algorithmName(algorithm);
      if (!isHash(name)) {
        throw new DOMException(`Unrecognized algorithm name: ${SUPPORTED}`, 'NotSupportedError');
      }
      return fromBase64(bridge('digest', name, '', toBase64(toBytes(data, 'data')))).buffer;
    }),
    importKey: promised(
      (
        format: unknown,
        keyData: unknown,
        algorithm: unknown,
        extractable: unknown,
        usages: Iterable<unknown>,
      ) => {
        if (format !== 'raw') {
          throw new DOMException(`Unsupported key format "${format}": ${SUPPORTED}`, 'NotSupportedError');
        }
        const { hash, length } = hmacParams(algorithm);
        const bytes = toBytes(keyData, 'keyData');
        if (bytes.length === 0) throw new DOMException('Zero-length key is not supported', 'DataError');
        if (length !== undefined && length !== bytes.length * 8) {
          throw new DOMException('Invalid key length', 'DataError');
        }
        return makeKey(bytes, hash, extractable, checkUsages(usages));
      },
    ),
    generateKey: promised((algorithm: unknown, extractable: unknown, usages: Iterable<unknown>) => {
      const { hash, length = HASHES[hash] } = hmacParams(algorithm);
      if (typeof length !== 'number' || !Number.isInteger(length) || length <= 0 || length % 8 !== 0) {
        throw new DOMException('HMAC key length must be a positive multiple of 8', 'OperationError');
      }
      const bytes = new Uint8Array(length / 8);
      for (let offset = 0; offset < bytes.length; offset += 65536) {
        getRandomValues(bytes.subarray(offset, offset + 65536));
      }
      return makeKey(bytes, hash, extractable, checkUsages(usages));
    }),
    exportKey: promised((format: unknown, key: HmacKey) => {
      const bytes = keyBytes.get(key);
      if (bytes === undefined) throw new TypeError('key must be a CryptoKey');
      if (format !== 'raw') {
        throw new DOMException(`Unsupported key format "${format}": ${SUPPORTED}`, 'NotSupportedError');
      }
      if (!key.extractable) throw new DOMException('key is not extractable', 'InvalidAccessError');
      return bytes.slice().buffer;
    }),
    sign: promised(sign),
    verify: promised((algorithm: unknown, key: HmacKey, signature: unknown, data: unknown) => {
      if (algorithmName(algorithm) !== 'HMAC' || key?.algorithm?.name !== 'HMAC') {
        throw new DOMException(`Unrecognized algorithm name: ${SUPPORTED}`, 'NotSupportedError');
      }
      const bytes = usableKey(key, 'verify');
      const expected = hmac(key.algorithm.hash.name, bytes, toBytes(data, 'data'));
      const given = toBytes(signature, 'signature');
      // Constant time in the length of the expected digest.
      let difference = expected.length ^ given.length;
      for (let i = 0; i < expected.length; i++) difference |= expected[i]! ^ (given[i] ?? 0);
      return difference === 0;
    }),
  };
  for (const name of ['encrypt', 'decrypt', 'deriveBits', 'deriveKey', 'wrapKey', 'unwrapKey']) {
    subtle[name] = unsupported(name);
  }
  return Object.freeze(subtle);
}
