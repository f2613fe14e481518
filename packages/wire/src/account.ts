import { z } from 'zod';

// Sign-in, who am I, device sign-in for the CLI, TOTP and personal access tokens: the routes under
// `/api/platform/` that the browser, the CLI and CI sign in with.

/** A user as the host shows them to themselves. */
export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  isPlatformAdmin: z.boolean(),
});
export type WireUser = z.output<typeof userSchema>;

/** Body of `POST /api/platform/sign-in`. */
export const signInRequestSchema = z.object({ email: z.string(), password: z.string() });
export type SignInRequest = z.output<typeof signInRequestSchema>;

/**
 * `data` of `POST /api/platform/sign-in` and `POST /api/platform/mfa/verify`: `mfa_pending` until
 * the user with TOTP enters a code.
 */
export const signedInResponseSchema = z.object({ user: userSchema, mfa_pending: z.boolean() });
export type SignedInResponse = z.output<typeof signedInResponseSchema>;

/** One account the user is a member of, with their role. */
export const membershipSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  role: z.enum(['owner', 'admin', 'member']),
});
export type Membership = z.output<typeof membershipSchema>;

/** `data` of `GET /api/platform/me`. */
export const meResponseSchema = z.object({ user: userSchema, accounts: z.array(membershipSchema) });
export type MeResponse = z.output<typeof meResponseSchema>;

/** Body of `POST /api/platform/device/code` (optional: no body at all is `{}`). */
export const deviceCodeRequestSchema = z.object({ client_name: z.string().max(100).exactOptional() });
export type DeviceCodeRequest = z.output<typeof deviceCodeRequestSchema>;

/** `data` of `POST /api/platform/device/code`, in the shape of RFC 8628. */
export const deviceCodeResponseSchema = z.object({
  device_code: z.string(),
  user_code: z.string(),
  verification_uri: z.string(),
  verification_uri_complete: z.string(),
  /** Seconds between polls. */
  interval: z.number(),
  /** Seconds the code lives. */
  expires_in: z.number(),
});
export type DeviceCodeResponse = z.output<typeof deviceCodeResponseSchema>;

/** Body of `POST /api/platform/device/token`. */
export const deviceTokenRequestSchema = z.object({ device_code: z.string().min(1) });
export type DeviceTokenRequest = z.output<typeof deviceTokenRequestSchema>;

/** `data` of `POST /api/platform/device/token` once approved: the CLI session. */
export const deviceTokenResponseSchema = z.object({
  token: z.string(),
  token_type: z.literal('Bearer'),
  expires_at: z.string(),
  mfa_pending: z.boolean(),
  user: z.object({ id: z.string(), email: z.string(), name: z.string() }),
});
export type DeviceTokenResponse = z.output<typeof deviceTokenResponseSchema>;

/** `data` of `GET /api/platform/device/requests/:user_code`: a pending sign-in, as the approval page shows it. */
export const deviceRequestResponseSchema = z.object({
  user_code: z.string(),
  /** What the client calls itself: untrusted text (control and format characters removed, at most 100). */
  client_name: z.string().nullable(),
  /** The address the code was asked for from; null when the host could not tell. */
  client_address: z.string().nullable(),
  requested_at: z.string(),
  expires_at: z.string(),
});
export type DeviceRequestResponse = z.output<typeof deviceRequestResponseSchema>;

/** Body of `POST /api/platform/device/approve` (from the browser page). */
export const deviceApproveRequestSchema = z.object({
  user_code: z.string(),
  decision: z.enum(['approve', 'deny']),
});
export type DeviceApproveRequest = z.output<typeof deviceApproveRequestSchema>;

/** `data` of `POST /api/platform/device/approve`. */
export const deviceApproveResponseSchema = z.object({
  user_code: z.string(),
  decision: z.enum(['approve', 'deny']),
  client_name: z.string().nullable(),
});
export type DeviceApproveResponse = z.output<typeof deviceApproveResponseSchema>;

/** Body of `POST /api/platform/mfa/verify` and `POST /api/platform/mfa/totp/confirm`. */
export const mfaCodeRequestSchema = z.object({ code: z.string().refine((code) => code.trim() !== '') });
export type MfaCodeRequest = z.output<typeof mfaCodeRequestSchema>;

/** `data` of `POST /api/platform/mfa/totp`: the secret to add to an authenticator app. */
export const totpSetupResponseSchema = z.object({ secret: z.string(), otpauth_url: z.string() });
export type TotpSetupResponse = z.output<typeof totpSetupResponseSchema>;

/** `data` of `GET /api/platform/mfa`: whether the user signs in with an authenticator code too. */
export const mfaStatusResponseSchema = z.object({ totp: z.object({ enabled: z.boolean() }) });
export type MfaStatusResponse = z.output<typeof mfaStatusResponseSchema>;

/** `data` of `POST /api/platform/mfa/totp/confirm`. */
export const totpConfirmResponseSchema = z.object({ enabled: z.literal(true) });
export type TotpConfirmResponse = z.output<typeof totpConfirmResponseSchema>;

/** What a personal access token may do. */
export const TOKEN_SCOPES = ['publish', 'read'] as const;
export const tokenScopeSchema = z.enum(TOKEN_SCOPES);
export type TokenScope = z.output<typeof tokenScopeSchema>;

/** A personal access token as listed (never its secret). */
export const tokenViewSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  scopes: z.array(tokenScopeSchema),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  /** When it last signed a request in (to the minute); null: never. */
  lastUsedAt: z.string().nullable(),
  lastUsedAddress: z.string().nullable(),
  /** The CLI session that minted it (the token ends with that session); null: a browser session did. */
  sessionId: z.string().nullable(),
});
export type TokenView = z.output<typeof tokenViewSchema>;

/** `data` of `GET /api/platform/tokens`. */
export const tokensResponseSchema = z.object({ tokens: z.array(tokenViewSchema) });
export type TokensResponse = z.output<typeof tokensResponseSchema>;

/** Body of `POST /api/platform/tokens`. */
export const createTokenRequestSchema = z.object({
  /** Not blank; the host keeps it trimmed. */
  name: z
    .string()
    .max(100)
    .refine((name) => name.trim() !== ''),
  scopes: z.array(tokenScopeSchema).min(1).exactOptional(),
  expires_days: z.int().min(1).max(3650).exactOptional(),
});
export type CreateTokenRequest = z.output<typeof createTokenRequestSchema>;

/** `data` of `POST /api/platform/tokens` (201): the token's secret, shown this once. */
export const createTokenResponseSchema = z.object({
  id: z.string(),
  token: z.string(),
  name: z.string(),
  scopes: z.array(tokenScopeSchema),
  expiresAt: z.string().nullable(),
});
export type CreateTokenResponse = z.output<typeof createTokenResponseSchema>;

/** `data` of `DELETE /api/platform/tokens/:id`. */
export const revokeTokenResponseSchema = z.object({ id: z.string(), revokedAt: z.string() });
export type RevokeTokenResponse = z.output<typeof revokeTokenResponseSchema>;

/** A browser or CLI session as listed (never its secret). */
export const sessionViewSchema = z.object({
  id: z.string(),
  /** `browser`: the session cookie; `cli`: a device sign-in. */
  kind: z.enum(['browser', 'cli']),
  /** A CLI session's client name, as the client called itself (untrusted text). */
  name: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  /** When it last signed a request in (to the minute); null: never. */
  lastUsedAt: z.string().nullable(),
  lastUsedAddress: z.string().nullable(),
  /** The session this request is signed in with. */
  current: z.boolean(),
});
export type SessionView = z.output<typeof sessionViewSchema>;

/** `data` of `GET /api/platform/sessions`: the sessions that still sign in, newest first. */
export const sessionsResponseSchema = z.object({ sessions: z.array(sessionViewSchema) });
export type SessionsResponse = z.output<typeof sessionsResponseSchema>;

/** `data` of `DELETE /api/platform/sessions/:id` (`:id` may be `current`): with the tokens it had minted. */
export const revokeSessionResponseSchema = z.object({
  id: z.string(),
  revokedAt: z.string(),
  revokedTokens: z.array(z.string()),
});
export type RevokeSessionResponse = z.output<typeof revokeSessionResponseSchema>;

/** One member of an account, as `GET /api/platform/accounts/:account/members` lists them. */
export const accountMemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(['owner', 'admin', 'member']),
  /** When they joined the account (ISO 8601). */
  since: z.string(),
});
export type AccountMember = z.output<typeof accountMemberSchema>;

/** `data` of `GET /api/platform/accounts/:account/members` (owners and admins only). */
export const accountMembersResponseSchema = z.object({ members: z.array(accountMemberSchema) });
export type AccountMembersResponse = z.output<typeof accountMembersResponseSchema>;
