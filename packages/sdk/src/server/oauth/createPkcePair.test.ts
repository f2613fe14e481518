import { describe, expect, test } from 'vitest';
import { createPkcePair, pkceChallenge } from './createPkcePair.js';

describe('createPkcePair', () => {
  test('computes the S256 challenge of RFC 7636 appendix B', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  test('makes a fresh 43-character base64url verifier each time, with its own challenge', () => {
    const first = createPkcePair();
    const second = createPkcePair();
    expect(first.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.codeVerifier).not.toBe(first.codeVerifier);
    expect(first.codeChallenge).toBe(pkceChallenge(first.codeVerifier));
  });
});
