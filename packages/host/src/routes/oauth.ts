import { redactText } from '@platform/sdk/runtime';
import {
  asOAuthFailure,
  authorizationCode,
  buildAuthorizationUrl,
  exchangeCode,
  isSameOriginPath,
  type OAuthErrorCode,
  OAuthFailure,
  returnLocation,
} from '@platform/sdk/server';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { callCapabilities } from '../capabilities/callCapabilities.js';
import type { HostServices } from '../HostServices.js';
import { findOAuthConnection, recordOAuthConnection } from '../oauth/oauthConnections.js';
import { consumeOAuthState, createOAuthState } from '../oauth/oauthStates.js';
import { readClientCredentials } from '../oauth/readClientCredentials.js';
import { securityEvent } from '../security/securityEvent.js';
import { type InstalledVersion, liveVersion, sourceServesAccount } from '../store/integrations.js';
import { membershipRole, type User } from '../store/users.js';
import { authenticate, hostOrigin } from './_auth.js';
import { resolveCall } from './_call.js';
import { RouteError, requestIdOf } from './_errors.js';

/**
 * The OAuth loop of an integration that declares `oauth` (docs/design.md, "OAuth"):
 * - `GET /<slug>/oauth/connect?accountId=&returnPath=` -> 302 to the provider's authorization endpoint
 * - `GET /<slug>/oauth/callback?code=&state=` -> code exchange, `onTokens`, 302 to the return path;
 *   every failure redirects there with `<slug>_oauth_error=<code>`
 * - `GET /<slug>/oauth/status?accountId=` -> `{ connected, connectedAt?, scope? }`
 * Connect and status answer JSON errors until the return path is known to be safe to redirect to.
 */
export function oauthRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.get('/:slug/oauth/connect', async (c) => {
    const target = await resolveCall(services, c, { allowInactive: true });
    const oauth = declaredOAuth(target.version);
    const returnPath = c.req.query('returnPath') ?? '';
    if (!isSameOriginPath(returnPath)) {
      throw new RouteError(
        400,
        'invalid_input',
        'returnPath must be a path on this host starting with a single "/" (for example "/settings/integrations"), without a scheme, host or backslash.',
      );
    }
    noStore(c);
    const slug = target.version.slug;
    try {
      const credentials = await readClientCredentials(services.db, services.secretBox, {
        version: target.version,
        oauth,
        accountId: target.accountId,
      });
      const redirectUri = callbackUrl(services, c, slug);
      const { state, codeChallenge } = await createOAuthState(services.db, services.secretBox, {
        slug,
        accountId: target.accountId,
        userId: target.user.id,
        returnPath,
        redirectUri,
        pkce: oauth.provider.pkce,
        now: services.now(),
      });
      return c.redirect(
        buildAuthorizationUrl({
          authorizationUrl: oauth.provider.authorizationUrl,
          clientId: credentials.clientId,
          redirectUri,
          scopes: oauth.provider.scopes,
          state,
          codeChallenge,
        }),
        302,
      );
    } catch (error) {
      if (!(error instanceof OAuthFailure)) throw error;
      logFailure(services, c, slug, target.accountId, 'OAuth connect failed', error);
      return c.redirect(returnLocation(returnPath, slug, error.code), 302);
    }
  });

  app.get('/:slug/oauth/callback', async (c) => {
    noStore(c);
    const slug = c.req.param('slug');
    const state = c.req.query('state');
    const consumed =
      state === undefined || state === ''
        ? undefined
        : await consumeOAuthState(services.db, services.secretBox, { slug, state, now: services.now() });
    if (consumed === undefined) {
      stateEvent(services, c, slug, {
        outcome: 'invalid',
        reason: state === undefined || state === '' ? 'missing' : 'unknown',
      });
      // No attempt to return to: the root of this host is the only safe place.
      logFailure(
        services,
        c,
        slug,
        undefined,
        'OAuth callback failed',
        new OAuthFailure('invalid', 'unknown state'),
      );
      return c.redirect(returnLocation('/', slug, 'invalid'), 302);
    }
    // What an unexpected throw means: before the exchange the attempt could not be verified; after
    // it the provider granted access and only saving the connection failed.
    let unexpected: OAuthErrorCode = 'invalid';
    try {
      if (consumed.status !== 'fresh') {
        throw stateRefusal(services, c, slug, {
          outcome: 'expired',
          reason: consumed.status,
          accountId: consumed.accountId,
          startedBy: consumed.userId,
        });
      }
      const user = await signedInUser(services, c);
      if (user?.id !== consumed.userId) {
        throw stateRefusal(services, c, slug, {
          outcome: 'unauthorized',
          reason: user === undefined ? 'not_signed_in' : 'other_user',
          accountId: consumed.accountId,
          userId: user?.id,
          startedBy: consumed.userId,
        });
      }
      const code = authorizationCode({ error: c.req.query('error'), code: c.req.query('code') });
      if ((await membershipRole(services.db, consumed.accountId, user.id)) === undefined) {
        throw new OAuthFailure('unauthorized', 'the user is no longer a member of the account');
      }
      const version = await liveVersion(services.db, slug);
      const oauth = version?.manifest.oauth;
      if (version === undefined || oauth === undefined) {
        throw new OAuthFailure('not_configured', 'the integration no longer declares oauth');
      }
      // The tenancy rule again: the source may have stopped serving the account since the start.
      if (!(await sourceServesAccount(services.db, version.sourceId, consumed.accountId))) {
        throw new OAuthFailure('not_configured', 'the integration is not available to the account');
      }
      const credentials = await readClientCredentials(services.db, services.secretBox, {
        version,
        oauth,
        accountId: consumed.accountId,
      });
      const tokens = await exchangeCode(services.fetch, {
        tokenUrl: oauth.provider.tokenUrl,
        tokenAuthMethod: oauth.provider.tokenAuthMethod,
        egress: version.manifest.egress,
        credentials,
        code,
        redirectUri: consumed.redirectUri,
        codeVerifier: consumed.codeVerifier,
        now: services.now(),
        onPrivateAddress: (error) =>
          securityEvent(
            services.logger,
            'egress_private_address',
            {
              integration: slug,
              accountId: consumed.accountId,
              requestId: requestIdOf(c),
              origin: error.origin,
            },
            error.message,
          ),
      });
      unexpected = 'save_failed';

      const { capabilities, commit } = callCapabilities(services, {
        version,
        accountId: consumed.accountId,
        userId: user.id,
        requestId: requestIdOf(c),
      });
      const result = await services.runtime.runOnTokens({
        version,
        capabilities,
        actor: { kind: 'user', userId: user.id, accountId: consumed.accountId },
        timeoutMs: services.limits.actionTimeoutMs,
        tokens,
      });
      // The partner's message may quote what it was handling: only the code is logged here.
      if (!result.ok) throw new OAuthFailure(result.error.code, 'onTokens refused or failed');
      try {
        await commit();
        await recordOAuthConnection(services.db, {
          slug,
          accountId: consumed.accountId,
          userId: user.id,
          scope: tokens.scope ?? oauth.provider.scopes.join(' '),
          connectedAt: services.now(),
        });
      } catch (error) {
        throw new OAuthFailure('save_failed', 'saving what onTokens wrote failed', {
          reason: redactText((error as Error).message ?? String(error)),
        });
      }
      services.logger.info(
        { integration: slug, accountId: consumed.accountId, requestId: requestIdOf(c) },
        'OAuth connection completed',
      );
      return c.redirect(returnLocation(consumed.returnPath, slug), 302);
    } catch (error) {
      const failure = asOAuthFailure(error, unexpected);
      logFailure(
        services,
        c,
        slug,
        consumed.status === 'fresh' ? consumed.accountId : undefined,
        'OAuth callback failed',
        failure,
      );
      return c.redirect(returnLocation(consumed.returnPath, slug, failure.code), 302);
    }
  });

  app.get('/:slug/oauth/status', async (c) => {
    const target = await resolveCall(services, c, { allowInactive: true });
    declaredOAuth(target.version);
    const connection = await findOAuthConnection(services.db, target.version.slug, target.accountId);
    return c.json({
      ok: true,
      data:
        connection === undefined
          ? { connected: false }
          : {
              connected: true,
              connectedAt: connection.connectedAt.toISOString(),
              ...(connection.scope === undefined ? {} : { scope: connection.scope }),
            },
    });
  });

  return app;
}

function declaredOAuth(version: InstalledVersion) {
  const oauth = version.manifest.oauth;
  if (oauth === undefined) {
    throw new RouteError(
      404,
      'integration_not_found',
      `Integration "${version.slug}" declares no oauth, so it has no OAuth routes; add oauth to its definition.`,
    );
  }
  return oauth;
}

function callbackUrl(services: HostServices, c: Context, slug: string): string {
  return `${hostOrigin(services, c)}/api/integrations/${encodeURIComponent(slug)}/oauth/callback`;
}

// The callback is a browser navigation: not signed in is a redirect with `unauthorized`, not a 401.
async function signedInUser(services: HostServices, c: Context): Promise<User | undefined> {
  try {
    return await authenticate(services, c);
  } catch (error) {
    if (error instanceof RouteError) return undefined;
    throw error;
  }
}

// Redirects carrying a state or a code must not be replayed from a cache.
function noStore(c: Context): void {
  c.header('Cache-Control', 'no-store');
}

/**
 * The `oauth_state` security event: a callback whose state this host did not issue for that
 * integration, that was spent or expired, or that another user (or nobody) brings back. What
 * matters is who and where; the state and code values themselves are never logged.
 */
function stateEvent(
  services: HostServices,
  c: Context,
  slug: string,
  fields: {
    outcome: 'invalid' | 'expired' | 'unauthorized';
    reason: 'missing' | 'unknown' | 'expired' | 'used' | 'not_signed_in' | 'other_user';
    accountId?: string;
    userId?: string | undefined;
    startedBy?: string;
  },
): void {
  securityEvent(
    services.logger,
    'oauth_state',
    { integration: slug, ...fields, requestId: requestIdOf(c) },
    `OAuth callback refused: ${STATE_REASONS[fields.reason]}`,
  );
}

/** Logs the `oauth_state` event and returns the failure the callback redirects with (the same words). */
function stateRefusal(
  services: HostServices,
  c: Context,
  slug: string,
  fields: Parameters<typeof stateEvent>[3] & { outcome: 'expired' | 'unauthorized' },
): OAuthFailure {
  stateEvent(services, c, slug, fields);
  return new OAuthFailure(fields.outcome, STATE_REASONS[fields.reason]);
}

const STATE_REASONS = {
  missing: 'no state',
  unknown: 'a state this host never issued for this integration',
  expired: 'the state is older than 10 minutes',
  used: 'the state was already used',
  not_signed_in: 'nobody is signed in',
  other_user: 'signed in as another user than the one who started the connection',
} as const;

function logFailure(
  services: HostServices,
  c: Context,
  slug: string,
  accountId: string | undefined,
  message: string,
  failure: OAuthFailure,
): void {
  services.logger.warn(
    {
      integration: slug,
      ...(accountId === undefined ? {} : { accountId }),
      requestId: requestIdOf(c),
      code: failure.code,
      ...failure.fields,
    },
    `${message} (${failure.code}): ${failure.message}`,
  );
}
