import type { RevokeSessionResponse, SessionsResponse } from '@platform/wire';
import { Hono } from 'hono';
import type { HostServices } from '../HostServices.js';
import { listSessions, revokeCredential } from '../store/credentials.js';
import { checkStateChange, hostOrigin, requireCredential } from './_auth.js';
import { RouteError } from './_errors.js';

/**
 * `/api/platform/sessions`: the signed-in user's browser and CLI sessions, with their last use, and
 * revoking one (with every token a CLI session minted). `DELETE /current` revokes the session the
 * request is signed in with. Listing needs `read`, revoking `publish`.
 */
export function sessionRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.get('/', async (c) => {
    const { user, credential } = await requireCredential(services, c, 'read');
    const sessions = await listSessions(services.db, user.id, services.now());
    return c.json({
      ok: true,
      data: {
        sessions: sessions.map((session) => ({ ...session, current: session.id === credential.id })),
      } satisfies SessionsResponse,
    });
  });

  app.delete('/:id', async (c) => {
    checkStateChange(services, c, { requireJson: false });
    const { user, credential } = await requireCredential(services, c, 'publish');
    const asked = c.req.param('id');
    if (asked === 'current' && credential.kind === 'token') {
      throw new RouteError(
        400,
        'invalid_request',
        'This request is signed in with a personal access token, not a session.',
        {
          hint: 'Revoke the token with DELETE /api/platform/tokens/<id>.',
        },
      );
    }
    const id = asked === 'current' ? credential.id : asked;
    const revoked = await revokeCredential(services.db, {
      id,
      kinds: ['session', 'cli'],
      userId: user.id,
      now: services.now(),
    });
    if (revoked === undefined) {
      throw new RouteError(404, 'invalid_request', `You have no session ${id}.`, {
        hint: `List your sessions with GET ${hostOrigin(services, c)}/api/platform/sessions and pass one of their ids.`,
      });
    }
    services.logger.info(
      { userId: user.id, sessionId: revoked.id, tokens: revoked.revokedTokens.length },
      'session revoked',
    );
    return c.json({
      ok: true,
      data: {
        id: revoked.id,
        revokedAt: revoked.revokedAt,
        revokedTokens: [...revoked.revokedTokens],
      } satisfies RevokeSessionResponse,
    });
  });

  return app;
}
