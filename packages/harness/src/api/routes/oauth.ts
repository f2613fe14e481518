import { createHash, randomBytes } from 'node:crypto';
import { createContext, redactText, runOnTokens } from '@platform/sdk/runtime';
import {
  asOAuthFailure,
  authorizationCode,
  buildAuthorizationUrl,
  createPkcePair,
  exchangeCode,
  isSameOriginPath,
  type OAuthErrorCode,
  OAuthFailure,
  returnLocation,
} from '@platform/sdk/server';
import type { OAuthStatusResponse, OkEnvelope } from '@platform/wire';
import { type Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { harnessOAuthStatus } from '../../config/harnessOAuthConnected.js';
import { entryEgress } from '../../fixtures/index.js';
import { HARNESS_ACCOUNT_ID } from '../../registry/index.js';
import type { HarnessRegistryEntry } from '../../types.js';
import { errorResponse } from '../_errors.js';
import { HARNESS_USER_ID, type HarnessApi, type HarnessEnv } from '../_harnessApi.js';
import { requestHost } from '../_requestGuards.js';
import { createLiveCapabilities } from '../liveCapabilities.js';
import { LOCAL_SECRETS_FILE } from '../localSecrets.js';

/** How long a connection attempt may take from connect to callback (as on the host). */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;
/** The browser's nonce cookie: a callback counts only in the browser that started the attempt. */
export const OAUTH_NONCE_COOKIE = 'platform_harness_oauth';
// Spent and expired attempts are remembered a day, so a replay reads as `expired`, not unknown.
const KEEP_MS = 24 * 60 * 60_000;
const NONCE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

interface Attempt {
  readonly slug: string;
  readonly nonceHash: string;
  readonly returnPath: string;
  readonly redirectUri: string;
  readonly codeVerifier: string | undefined;
  readonly expiresAt: number;
  used: boolean;
}

/**
 * The harness's OAuth loop, the host's shapes on the harness's origin (spec "OAuth routes"):
 * - `GET oauth/connect?accountId=&returnPath=` -> 302 to the provider, with a single-use state
 *   (10 minutes) bound to this browser's nonce cookie, PKCE when the definition asks for it;
 * - `GET oauth/callback` -> code exchange through the entry's egress, `onTokens` on the live
 *   context, 302 to the return path (`<slug>_oauth_error=<code>` on failure);
 * - `GET oauth/status` -> `{ connected, connectedAt?, scope? }`: fixtures mode from the entry's
 *   `oauth.connected` for the variant, live mode from the live store.
 * Connect and callback are browser navigations and carry no toolbar headers: they always run the
 * real loop against the provider, with the client credentials from `.platform/local-secrets.json`,
 * and what `onTokens` writes lands in the live store in one write, or not at all.
 */
export function oauthRoutes(api: HarnessApi): Hono<HarnessEnv> {
  const app = new Hono<HarnessEnv>();
  const attempts = new Map<string, Attempt>();

  app.get('/oauth/connect', async (c) => {
    const { entry } = c.get('call');
    const oauth = declaredOAuth(c, entry);
    if (oauth instanceof Response) return oauth;
    const refusal = checkAccount(c) ?? checkReturnPath(c);
    if (refusal !== undefined) return refusal;
    const returnPath = c.req.query('returnPath') as string;
    noStore(c);
    try {
      const credentials = await readCredentials(api, oauth.credentials);
      let nonce = getCookie(c, OAUTH_NONCE_COOKIE);
      if (nonce === undefined || !NONCE_PATTERN.test(nonce)) nonce = randomBytes(32).toString('base64url');
      setCookie(c, OAUTH_NONCE_COOKIE, nonce, {
        path: '/api/integrations/',
        httpOnly: true,
        // The provider's redirect back is a top-level cross-site GET: Lax cookies go with it.
        sameSite: 'Lax',
        maxAge: OAUTH_STATE_TTL_MS / 1000,
      });
      const state = randomBytes(32).toString('base64url');
      const pkce = oauth.provider.pkce === true ? createPkcePair() : undefined;
      const now = api.now().getTime();
      for (const [key, attempt] of attempts) if (attempt.expiresAt + KEEP_MS < now) attempts.delete(key);
      const redirectUri = callbackUrl(c, entry.slug);
      attempts.set(sha256(state), {
        slug: entry.slug,
        nonceHash: sha256(nonce),
        returnPath,
        redirectUri,
        codeVerifier: pkce?.codeVerifier,
        expiresAt: now + OAUTH_STATE_TTL_MS,
        used: false,
      });
      api.log(
        `[harness] OAuth ${entry.slug}: connect, redirecting to ${new URL(oauth.provider.authorizationUrl).origin}`,
      );
      return c.redirect(
        buildAuthorizationUrl({
          authorizationUrl: oauth.provider.authorizationUrl,
          clientId: credentials.clientId,
          redirectUri,
          scopes: oauth.provider.scopes,
          state,
          codeChallenge: pkce?.codeChallenge,
        }),
        302,
      );
    } catch (error) {
      if (!(error instanceof OAuthFailure)) throw error;
      logFailure(api, entry.slug, 'connect', error);
      return c.redirect(returnLocation(returnPath, entry.slug, error.code), 302);
    }
  });

  app.get('/oauth/callback', async (c) => {
    noStore(c);
    const { entry } = c.get('call');
    const slug = entry.slug;
    const state = c.req.query('state') ?? '';
    const attempt = state === '' ? undefined : attempts.get(sha256(state));
    if (attempt === undefined || attempt.slug !== slug) {
      logFailure(
        api,
        slug,
        'callback',
        new OAuthFailure(
          'invalid',
          state === '' ? 'no state' : 'a state this harness never issued for this integration',
        ),
      );
      // No attempt to return to: the root of the harness is the only safe place.
      return c.redirect(returnLocation('/', slug, 'invalid'), 302);
    }
    const wasUsed = attempt.used;
    attempt.used = true;
    // Before the exchange an unexpected throw means the attempt could not be verified; after it the
    // provider granted access and only saving failed.
    let unexpected: OAuthErrorCode = 'invalid';
    try {
      if (wasUsed) throw new OAuthFailure('expired', 'the state was already used');
      if (attempt.expiresAt <= api.now().getTime())
        throw new OAuthFailure('expired', 'the state is older than 10 minutes');
      const nonce = getCookie(c, OAUTH_NONCE_COOKIE);
      if (nonce === undefined || sha256(nonce) !== attempt.nonceHash) {
        throw new OAuthFailure(
          'unauthorized',
          'the callback came from another browser than the one that started the connection (no matching nonce cookie)',
        );
      }
      const code = authorizationCode({ error: c.req.query('error'), code: c.req.query('code') });
      const definition = entry.definition;
      const oauth = definition?.oauth;
      if (definition === undefined || oauth === undefined)
        throw new OAuthFailure('not_configured', 'the entry no longer declares oauth');
      const credentials = await readCredentials(api, oauth.credentials);
      const tokens = await exchangeCode(api.liveFetch, {
        tokenUrl: oauth.provider.tokenUrl,
        tokenAuthMethod: oauth.provider.tokenAuthMethod ?? 'client_secret_basic',
        egress: entryEgress(entry),
        credentials,
        code,
        redirectUri: attempt.redirectUri,
        codeVerifier: attempt.codeVerifier,
        now: api.now(),
      });
      unexpected = 'save_failed';

      // onTokens' writes are held (reads see them); the commit stores them with the connection in
      // one live-store update, and a refusal or throw leaves no trace.
      const live = createLiveCapabilities(api, entry, { record: false });
      const ctx = createContext({
        definition,
        // The partner's own lines (onTokens' failure among them) go to the harness log, redacted again.
        capabilities: {
          ...live,
          log: (line) =>
            api.log(`[harness] OAuth ${slug} onTokens ${line.level}: ${redactText(line.message)}`),
        },
        actor: { kind: 'user', userId: HARNESS_USER_ID, accountId: HARNESS_ACCOUNT_ID },
      });
      const result = await runOnTokens(definition, ctx, tokens);
      // The partner's message may quote what it was handling: only the code is logged here.
      if (!result.ok) throw new OAuthFailure(result.error.code, 'onTokens refused or failed');
      const connectedAt = api.now().toISOString();
      const scope = tokens.scope ?? oauth.provider.scopes.join(' ');
      try {
        await live.commit((state) => {
          state.oauth = { connectedAt, scope };
        });
      } catch (error) {
        throw new OAuthFailure('save_failed', 'saving what onTokens wrote failed', {
          reason: redactText((error as Error).message ?? String(error)),
        });
      }
      api.log(
        `[harness] OAuth ${slug}: connected (scope "${scope}"); onTokens' writes are in the live store`,
      );
      return c.redirect(returnLocation(attempt.returnPath, slug), 302);
    } catch (error) {
      const failure = asOAuthFailure(error, unexpected);
      logFailure(api, slug, 'callback', failure);
      return c.redirect(returnLocation(attempt.returnPath, slug, failure.code), 302);
    }
  });

  app.get('/oauth/status', async (c) => {
    const call = c.get('call');
    const oauth = declaredOAuth(c, call.entry);
    if (oauth instanceof Response) return oauth;
    const refusal = checkAccount(c);
    if (refusal !== undefined) return refusal;
    if (call.mode !== 'live')
      return c.json({
        ok: true,
        data: harnessOAuthStatus(call.entry, call.variant, api.now()),
      } satisfies OkEnvelope<OAuthStatusResponse>);
    const connection = (await api.liveStore.read(call.entry.slug)).oauth;
    return c.json({
      ok: true,
      data:
        connection === undefined
          ? { connected: false }
          : {
              connected: true,
              connectedAt: connection.connectedAt,
              ...(connection.scope === undefined ? {} : { scope: connection.scope }),
            },
    } satisfies OkEnvelope<OAuthStatusResponse>);
  });

  return app;
}

type DeclaredOAuth = NonNullable<NonNullable<HarnessRegistryEntry['definition']>['oauth']>;

function declaredOAuth(c: Context<HarnessEnv>, entry: HarnessRegistryEntry): DeclaredOAuth | Response {
  const oauth = entry.definition?.oauth;
  if (oauth !== undefined) return oauth;
  return errorResponse(
    c,
    404,
    'integration_not_found',
    entry.definition === undefined
      ? `"${entry.slug}" has no definition in harness.config.ts, so it has no OAuth routes; add definition: asHarnessDefinition(yourDefinition) to its entry.`
      : `Integration "${entry.slug}" declares no oauth, so it has no OAuth routes; add oauth to its definition.`,
  );
}

// The harness has one account; another id is a page that mixed up its data.
function checkAccount(c: Context<HarnessEnv>): Response | undefined {
  const accountId = c.req.query('accountId');
  if (accountId === undefined || accountId === HARNESS_ACCOUNT_ID) return undefined;
  return errorResponse(
    c,
    400,
    'invalid_input',
    `accountId "${accountId}" is not the harness account; send HARNESS_ACCOUNT_ID (${HARNESS_ACCOUNT_ID}, from @platform/harness/registry) or leave it out.`,
  );
}

function checkReturnPath(c: Context<HarnessEnv>): Response | undefined {
  if (isSameOriginPath(c.req.query('returnPath') ?? '')) return undefined;
  return errorResponse(
    c,
    400,
    'invalid_input',
    'returnPath must be a path on this harness starting with a single "/" (for example "/acme-notes/activation"), without a scheme, host or backslash.',
  );
}

// Admin-added credentials: in the harness, the local secrets file stands for the admin tiers.
async function readCredentials(
  api: HarnessApi,
  names: DeclaredOAuth['credentials'],
): Promise<{ clientId: string; clientSecret: string }> {
  const secrets = await api.localSecrets.read();
  const read = (name: string) => {
    const value = Object.hasOwn(secrets, name) ? secrets[name] : undefined;
    if (value === undefined || value === '') {
      throw new OAuthFailure(
        'not_configured',
        `the secret "${name}" is not set in ${LOCAL_SECRETS_FILE}; fill it in on the Activation surface (or POST local-setup) and connect again`,
      );
    }
    return value;
  };
  return { clientId: read(names.clientIdSecretName), clientSecret: read(names.clientSecretSecretName) };
}

function callbackUrl(c: Context, slug: string): string {
  const protocol = new URL(c.req.url).protocol;
  return `${protocol}//${requestHost(c.req.raw)}/api/integrations/${encodeURIComponent(slug)}/oauth/callback`;
}

// Redirects carrying a state or a code must not be replayed from a cache.
function noStore(c: Context): void {
  c.header('Cache-Control', 'no-store');
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

// The failure's message and fields are written for logs: never a token, code, secret or state.
function logFailure(
  api: HarnessApi,
  slug: string,
  step: 'connect' | 'callback',
  failure: OAuthFailure,
): void {
  const fields = Object.entries(failure.fields)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .join(' ');
  api.log(
    `[harness] OAuth ${slug}: ${step} failed (${failure.code}): ${failure.message}${fields === '' ? '' : ` ${fields}`}`,
  );
}
