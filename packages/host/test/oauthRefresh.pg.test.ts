import { randomBytes } from 'node:crypto';
import { createHost, type Host } from '@platform/host';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRefreshedOnTokens } from '../src/capabilities/callCapabilities.js';
import { refreshConnection } from '../src/oauth/refreshConnection.js';
import { pgSchema } from './_host.js';
import { testDatabase } from './_postgres.js';
import { type OAuthTestBed, startOAuthTestBed } from './fixtures/oauth/oauthTestBed.js';
import { connectThroughProvider, refreshHelpers } from './fixtures/oauth/refreshHelpers.js';

const { url, skipped } = testDatabase();
const MINUTE = 60_000;

// Two host instances on one PostgreSQL database refresh one connection at the same moment: the
// row lock makes one of them ask the provider, the other re-reads and takes its token.
describe.skipIf(!url)(
  `OAuth refresh across two instances on PostgreSQL${url ? '' : ` (skipped: ${skipped})`}`,
  () => {
    let schema: Awaited<ReturnType<typeof pgSchema>>;
    let bed: OAuthTestBed;
    let other: Host;
    let h: ReturnType<typeof refreshHelpers>;

    beforeAll(async () => {
      schema = await pgSchema(url!, 'oauth_refresh');
      // Both instances share the secret key, as a deployment's instances do.
      const env = { PLATFORM_SECRET_KEY: randomBytes(32).toString('base64') };
      bed = await startOAuthTestBed({ databaseUrl: schema.url, accessTokenTtl: 20 * 60, host: { env } });
      other = await createHost({
        databaseUrl: schema.url,
        env,
        runtime: 'in-process',
        logger: pino({ level: 'silent' }),
        egress: { allowLoopback: true, ca: bed.server.ca },
        publicOrigin: 'https://host.example.test',
        now: () => bed.host.services.now(),
      });
      h = refreshHelpers(bed);
    }, 60_000);
    afterAll(async () => {
      await other?.close();
      await bed?.close();
      await schema?.drop();
    });

    const refreshOn = (host: Host) =>
      refreshConnection(host.services, {
        slug: 'oauth-basic',
        accountId: bed.host.accountId,
        cause: { kind: 'scheduled' },
        onTokens: runRefreshedOnTokens(host.services),
      });

    it('refreshes once when both instances refresh before expiry at the same moment', async () => {
      await connectThroughProvider(bed, 'oauth-basic');
      const old = (await h.tokens('oauth-basic'))!;
      bed.setClockOffset(6 * MINUTE);
      const grants = h.refreshGrants().length;
      const outcomes = await Promise.all([refreshOn(bed.host), refreshOn(other)]);
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['refreshed', 'skipped']);
      expect(h.refreshGrants()).toHaveLength(grants + 1);
      const kept = (await h.tokens('oauth-basic'))!;
      expect(kept.accessToken).not.toBe(old.accessToken);
      for (const outcome of outcomes)
        expect('tokens' in outcome && outcome.tokens.accessToken).toBe(kept.accessToken);
      expect(kept.refreshToken).toBe(bed.server.tokenResponses.at(-1)!.refresh_token);
      expect((await h.status('oauth-basic')).health.state).toBe('healthy');
    });

    it('refreshes once when a call on each instance meets a 401 at once, and both calls get through', async () => {
      const old = (await h.tokens('oauth-basic'))!;
      await bed.server.revokeAccessToken(old.accessToken);
      const grants = h.refreshGrants().length;
      const call = (host: Host) =>
        host.app.request(`/api/integrations/oauth-basic/actions/whoami?accountId=${bed.host.accountId}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bed.host.token}`, 'content-type': 'application/json' },
          body: '{}',
        });
      const answers = await Promise.all([call(bed.host), call(other)]);
      for (const answer of answers) {
        expect(await answer.json()).toEqual({ ok: true, data: { status: 200, body: { sub: 'alice' } } });
      }
      expect(h.refreshGrants()).toHaveLength(grants + 1);
    });
  },
);
