import { createHash, randomBytes } from 'node:crypto';

/** A PKCE pair (RFC 7636): the verifier the client keeps, the S256 challenge it sends. */
export interface PkcePair {
  /** 32 random bytes, base64url (43 characters): sent only with the code exchange. */
  readonly codeVerifier: string;
  /** `BASE64URL(SHA256(codeVerifier))`: sent with the authorization request. */
  readonly codeChallenge: string;
}

/**
 * A fresh PKCE verifier and its S256 challenge, for an authorization request that the code
 * exchange later proves it made.
 * @example const { codeVerifier, codeChallenge } = createPkcePair();
 */
export function createPkcePair(): PkcePair {
  const codeVerifier = randomBytes(32).toString('base64url');
  return { codeVerifier, codeChallenge: pkceChallenge(codeVerifier) };
}

/**
 * The S256 `code_challenge` of a verifier (RFC 7636 4.2).
 * @example pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk') // 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'
 */
export function pkceChallenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier).digest('base64url');
}
