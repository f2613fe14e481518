import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

/**
 * A bearer secret: printable, 256 bits, with a prefix that says what it is (`plt` token, `pls`
 * browser session, `plc` CLI session, `pld` device code; for MCP clients `pma` access token,
 * `pmr` refresh token, `pmc` authorization code).
 */
export const newToken = (prefix: 'plt' | 'pls' | 'plc' | 'pld' | 'pma' | 'pmr' | 'pmc'): string =>
  `${prefix}_${randomBytes(32).toString('base64url')}`;

/** Only this is stored for tokens, sessions and OAuth states. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Whether a bearer secret is one of the host's MCP OAuth tokens (their audience is `/mcp` only). */
export const isMcpToken = (secret: string): boolean => secret.startsWith('pma_') || secret.startsWith('pmr_');
