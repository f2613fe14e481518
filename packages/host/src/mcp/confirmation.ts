import { createHash, randomBytes } from 'node:crypto';
import { toolArgumentsJson } from '@platform/sdk/runtime';
import type { SecretBox } from '../secrets/SecretBox.js';

/** How long a person has to answer a confirmation prompt, and the sealed state stays usable. */
export const CONFIRMATION_TTL_MS = 5 * 60_000;

// Bound as AES-GCM additional data: a sealed confirmation is no other sealed thing of the host.
const CONTEXT = 'platform/mcp-confirmation/v1';

/** What a sealed confirmation binds: one user, one account, one tool, these arguments, once, until `expiresAt`. */
export interface ConfirmationClaim {
  readonly nonce: string;
  readonly userId: string;
  readonly accountId: string;
  readonly tool: string;
  readonly argsHash: string;
  readonly expiresAt: number;
}

/** The arguments' fingerprint: SHA-256 of their JSON with object keys sorted. */
export function argumentsHash(args: unknown): string {
  return createHash('sha256').update(toolArgumentsJson(args)).digest('base64url');
}

/** A new claim for a call about to ask, sealed (encrypted and authenticated with the host's key). */
export function sealConfirmation(
  box: SecretBox,
  call: { userId: string; accountId: string; tool: string; args: unknown },
  now: Date,
): { state: string; claim: ConfirmationClaim } {
  const claim: ConfirmationClaim = {
    nonce: randomBytes(16).toString('base64url'),
    userId: call.userId,
    accountId: call.accountId,
    tool: call.tool,
    argsHash: argumentsHash(call.args),
    expiresAt: now.getTime() + CONFIRMATION_TTL_MS,
  };
  return { state: box.encrypt(JSON.stringify(claim), CONTEXT), claim };
}

/**
 * The claim of a sealed state a client echoed back, when it is this host's, unexpired, and for
 * exactly this user, account, tool and arguments; otherwise why not (for the refusal's message).
 * Single use is the caller's (`useConfirmation`): this only reads.
 */
export function openConfirmation(
  box: SecretBox,
  state: string,
  call: { userId: string; accountId: string; tool: string; args: unknown },
  now: Date,
): { ok: true; claim: ConfirmationClaim } | { ok: false; why: string } {
  let claim: ConfirmationClaim;
  try {
    claim = JSON.parse(box.decrypt(state, CONTEXT)) as ConfirmationClaim;
  } catch {
    return { ok: false, why: 'the confirmation is not one this host issued' };
  }
  if (typeof claim.expiresAt !== 'number' || claim.expiresAt <= now.getTime())
    return { ok: false, why: 'the confirmation expired' };
  if (claim.userId !== call.userId || claim.accountId !== call.accountId || claim.tool !== call.tool)
    return { ok: false, why: 'the confirmation was given for another call' };
  if (claim.argsHash !== argumentsHash(call.args))
    return { ok: false, why: 'the arguments changed after the confirmation' };
  return { ok: true, claim };
}
