// Byte helpers for webhook verification. Web Crypto, TextEncoder and atob only (Node's crypto when
// the runtime offers it), so the code also runs in a plain V8 isolate without Node built-ins.

const HASHES = {
  sha256: { name: 'SHA-256', bytes: 32 },
  sha1: { name: 'SHA-1', bytes: 20 },
} as const;

export type HmacAlgorithm = keyof typeof HASHES;

const encoder = new TextEncoder();

export function isHmacAlgorithm(value: unknown): value is HmacAlgorithm {
  return typeof value === 'string' && Object.hasOwn(HASHES, value);
}

export function digestLength(algorithm: HmacAlgorithm): number {
  return HASHES[algorithm].bytes;
}

export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

// Copying into a fresh ArrayBuffer keeps a caller's view (possibly over a larger or shared buffer) byte exact.
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

interface NodeHmac {
  createHmac(
    algorithm: string,
    key: Uint8Array,
  ): {
    update(data: Uint8Array): { digest(): Uint8Array };
  };
}

// Under Node (the host verifying a webhook delivery) its own HMAC: synchronous, where Web Crypto
// imports a key and goes through the thread pool for every digest (a quarter of the host's CPU
// per delivery in the ingest benchmark). A plain V8 isolate has no `process` and keeps Web Crypto.
const nodeCrypto = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule?.('node:crypto') as NodeHmac | undefined;

export async function hmac(
  algorithm: HmacAlgorithm,
  secret: Uint8Array<ArrayBuffer>,
  message: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  if (nodeCrypto !== undefined) {
    return new Uint8Array(nodeCrypto.createHmac(algorithm, secret).update(message).digest());
  }
  const hash = HASHES[algorithm].name;
  const key = await globalThis.crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash }, false, [
    'sign',
  ]);
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, message));
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * Decodes a hex or base64 (standard or URL-safe) digest; `undefined` when it is neither. Hex of the
 * expected length wins, because a hex string is also valid base64 text.
 */
export function decodeDigest(text: string, expectedBytes: number): Uint8Array | undefined {
  if (text.length === expectedBytes * 2) {
    const out = hexBytes(text);
    if (out !== undefined) return out;
  }
  if (!BASE64.test(text)) return undefined;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** A hex digit's value, or -1: `0-9`, `a-f`, `A-F`. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** Even-length hex text as bytes; `undefined` when any character is not a hex digit. */
function hexBytes(text: string): Uint8Array | undefined {
  const out = new Uint8Array(text.length >> 1);
  for (let i = 0; i < out.length; i++) {
    const high = hexDigit(text.charCodeAt(i * 2));
    const low = hexDigit(text.charCodeAt(i * 2 + 1));
    if (high < 0 || low < 0) return undefined;
    out[i] = (high << 4) | low;
  }
  return out;
}

/** Time depends only on the lengths, never on where the first differing byte is. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  let diff = 0;
  for (let i = 0; i < a.byteLength; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}
