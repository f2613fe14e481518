import { createTokenRequestSchema, type TokensResponse } from '@platform/wire';
import { Hono } from 'hono';
import type { HostServices } from '../HostServices.js';
import { listTokens, revokeTokenById } from '../store/credentials.js';
import { createToken, TOKEN_SCOPES } from '../store/users.js';
import { checkStateChange, hostOrigin, requireCliUser, requireCredential } from './_auth.js';
import { RouteError } from './_errors.js';
import { parsedBody } from './_jsonBody.js';

const CREATE_USAGE = '{ "name": "ci", "scopes": ["publish", "read"], "expires_days": 90 }';

/**
 * `/api/platform/tokens`: the signed-in user's personal access tokens (for CI). Listing needs
 * `read`; creating needs a session (browser or CLI: a token never makes tokens); revoking `publish`.
 */
export function tokenRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.get('/', async (c) => {
    const user = await requireCliUser(services, c, 'read');
    const tokens = await listTokens(services.db, user.id);
    return c.json({
      ok: true,
      data: {
        tokens: tokens.map((token) => ({ ...token, scopes: [...token.scopes] })),
      } satisfies TokensResponse,
    });
  });

  app.post('/', async (c) => {
    checkStateChange(services, c, { requireJson: true });
    const { user, credential } = await requireCredential(services, c, 'publish');
    if (credential.kind === 'token') {
      throw new RouteError(403, 'forbidden', 'A personal access token cannot create tokens.', {
        hint: `Sign in with \`platform login --host ${hostOrigin(services, c)}\` and create the token from that session.`,
      });
    }
    const {
      name,
      scopes,
      expires_days: expiresDays,
    } = await parsedBody(services.limits, c, createTokenRequestSchema, CREATE_USAGE);
    const granted = scopes ?? TOKEN_SCOPES;
    const asked =
      expiresDays === undefined ? undefined : new Date(services.now().getTime() + expiresDays * 86_400_000);
    // A token a CLI session mints ends with it: no later than its expiry, and revoked with it.
    const parent = credential.kind === 'cli' ? credential : undefined;
    const expiresAt = earliest(asked, parent?.expiresAt);
    const { id, token } = await createToken(services.db, {
      userId: user.id,
      kind: 'token',
      name: name.trim(),
      expiresAt,
      scopes: granted,
      parentId: parent?.id,
    });
    return c.json(
      {
        ok: true,
        data: {
          id,
          token,
          name: name.trim(),
          scopes: TOKEN_SCOPES.filter((scope) => granted.includes(scope)),
          expiresAt: expiresAt?.toISOString() ?? null,
        },
      },
      201,
    );
  });

  app.delete('/:id', async (c) => {
    checkStateChange(services, c, { requireJson: false });
    const user = await requireCliUser(services, c, 'publish');
    const id = c.req.param('id');
    const revoked = await revokeTokenById(services.db, { id, userId: user.id, now: services.now() });
    if (revoked === undefined) {
      throw new RouteError(404, 'invalid_request', `You have no token ${id}.`, {
        hint: 'List your tokens with GET /api/platform/tokens and pass one of their ids.',
      });
    }
    return c.json({ ok: true, data: { id: revoked.id, revokedAt: revoked.revokedAt } });
  });

  return app;
}

const earliest = (a: Date | undefined, b: Date | undefined): Date | undefined =>
  a === undefined ? b : b === undefined || a.getTime() <= b.getTime() ? a : b;
