// crypto.subtle for the isolate: the part of Web Crypto integrations use, digests (SHA-1/256/384/512)
// and HMAC keys (importKey 'raw', generateKey, exportKey 'raw', sign, verify), computed by the
// runner's node:crypto through a synchronous bridge call that takes and returns base64 text. Keys
// stay in the isolate: a CryptoKey keeps its bytes in a WeakMap partner code cannot read unless the
// key is extractable. Everything else rejects with NotSupportedError naming what is supported.
import { copyBytes, base64ToBytes as fromBase64, bytesToBase64 as toBase64 } from './bytes.js';
import { DOMException } from './coreJs.js';

const HASHES = { 'SHA-1': 512, 'SHA-256': 512, 'SHA-384': 1024, 'SHA-512': 1024 }; // block sizes in bits
const SUPPORTED =
  'the isolate supports digest (SHA-1, SHA-256, SHA-384, SHA-512) and HMAC keys (importKey "raw", generateKey, exportKey "raw", sign, verify)';

const keyBytes = new WeakMap();

export class CryptoKey {
  constructor() {
    throw new TypeError('Illegal constructor');
  }
  get [Symbol.toStringTag]() {
    return 'CryptoKey';
  }
}

function makeKey(bytes, hash, extractable, usages) {
  const key = Object.create(CryptoKey.prototype);
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

function toBytes(data, what) {
  const bytes = copyBytes(data);
  if (bytes === undefined)
    throw new TypeError(`${what} must be an ArrayBuffer or a typed array (a BufferSource)`);
  return bytes;
}

function algorithmName(algorithm) {
  const name = typeof algorithm === 'string' ? algorithm : algorithm?.name;
  if (typeof name !== 'string') throw new TypeError('algorithm needs a name');
  return name.toUpperCase();
}

function hashName(hash) {
  if (hash === undefined) throw new TypeError('HMAC needs a hash (SHA-1, SHA-256, SHA-384 or SHA-512)');
  const name = algorithmName(hash);
  if (!Object.hasOwn(HASHES, name))
    throw new DOMException(`Unrecognized hash "${name}": ${SUPPORTED}`, 'NotSupportedError');
  return name;
}

function hmacParams(algorithm) {
  if (algorithmName(algorithm) !== 'HMAC') {
    throw new DOMException(`Unrecognized algorithm name: ${SUPPORTED}`, 'NotSupportedError');
  }
  return { hash: hashName(algorithm.hash), length: algorithm.length };
}

function checkUsages(usages) {
  const list = [...usages];
  if (list.length === 0) throw new DOMException('Usages cannot be empty when creating a key.', 'SyntaxError');
  for (const usage of list) {
    if (usage !== 'sign' && usage !== 'verify') {
      throw new DOMException('Unsupported key usage for an HMAC key', 'SyntaxError');
    }
  }
  return [...new Set(list)];
}

function usableKey(key, usage) {
  const bytes = keyBytes.get(key);
  if (bytes === undefined) throw new TypeError('key must be a CryptoKey');
  if (!key.usages.includes(usage)) {
    throw new DOMException(`Unable to use this key to ${usage}`, 'InvalidAccessError');
  }
  return bytes;
}

// Rejections, not throws: every method of crypto.subtle answers with a promise.
const promised =
  (method) =>
  (...args) => {
    try {
      return Promise.resolve(method(...args));
    } catch (error) {
      return Promise.reject(error);
    }
  };

const unsupported = (name) =>
  promised(() => {
    throw new DOMException(`crypto.subtle.${name} is not available: ${SUPPORTED}`, 'NotSupportedError');
  });

/** The `crypto.subtle` object over the runner's `subtle(op, hash, keyBase64, dataBase64)` bridge call. */
export function createSubtle(bridge, getRandomValues) {
  const hmac = (hash, key, data) => fromBase64(bridge('hmac', hash, toBase64(key), toBase64(data)));
  const sign = (algorithm, key, data) => {
    if (algorithmName(algorithm) !== 'HMAC' || key?.algorithm?.name !== 'HMAC') {
      throw new DOMException(`Unrecognized algorithm name: ${SUPPORTED}`, 'NotSupportedError');
    }
    const bytes = usableKey(key, 'sign');
    return hmac(key.algorithm.hash.name, bytes, toBytes(data, 'data')).buffer;
  };
  const subtle = {
    digest: promised((algorithm, data) => {
      const name = algorithmName(algorithm);
      if (!Object.hasOwn(HASHES, name)) {
        throw new DOMException(`Unrecognized algorithm name: ${SUPPORTED}`, 'NotSupportedError');
      }
      return fromBase64(bridge('digest', name, '', toBase64(toBytes(data, 'data')))).buffer;
    }),
    importKey: promised((format, keyData, algorithm, extractable, usages) => {
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
    }),
    generateKey: promised((algorithm, extractable, usages) => {
      const { hash, length = HASHES[hash] } = hmacParams(algorithm);
      if (!Number.isInteger(length) || length <= 0 || length % 8 !== 0) {
        throw new DOMException('HMAC key length must be a positive multiple of 8', 'OperationError');
      }
      const bytes = new Uint8Array(length / 8);
      for (let offset = 0; offset < bytes.length; offset += 65536) {
        getRandomValues(bytes.subarray(offset, offset + 65536));
      }
      return makeKey(bytes, hash, extractable, checkUsages(usages));
    }),
    exportKey: promised((format, key) => {
      const bytes = keyBytes.get(key);
      if (bytes === undefined) throw new TypeError('key must be a CryptoKey');
      if (format !== 'raw') {
        throw new DOMException(`Unsupported key format "${format}": ${SUPPORTED}`, 'NotSupportedError');
      }
      if (!key.extractable) throw new DOMException('key is not extractable', 'InvalidAccessError');
      return bytes.slice().buffer;
    }),
    sign: promised(sign),
    verify: promised((algorithm, key, signature, data) => {
      if (algorithmName(algorithm) !== 'HMAC' || key?.algorithm?.name !== 'HMAC') {
        throw new DOMException(`Unrecognized algorithm name: ${SUPPORTED}`, 'NotSupportedError');
      }
      const bytes = usableKey(key, 'verify');
      const expected = hmac(key.algorithm.hash.name, bytes, toBytes(data, 'data'));
      const given = toBytes(signature, 'signature');
      // Constant time in the length of the expected digest.
      let difference = expected.length ^ given.length;
      for (let i = 0; i < expected.length; i++) difference |= expected[i] ^ (given[i] ?? 0);
      return difference === 0;
    }),
  };
  for (const name of ['encrypt', 'decrypt', 'deriveBits', 'deriveKey', 'wrapKey', 'unwrapKey']) {
    subtle[name] = unsupported(name);
  }
  return Object.freeze(subtle);
}
