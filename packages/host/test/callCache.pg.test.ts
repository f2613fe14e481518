import { createHost, type Host } from '@platform/host';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CACHE_OPTIONS } from '../src/cache/hostCache.js';
import { RATE_LIMIT_SYNC_MS } from '../src/rateLimit.js';
import { deleteActivation, upsertActivation } from '../src/store/integrations.js';
import { revokeToken } from '../src/store/users.js';
import { installFixture, pgSchema, startTestHost, type TestHost } from './_host.js';
import { testDatabase } from './_postgres.js';

// Two host instances on one PostgreSQL schema, calls flowing through both: each change to what an
// action call's resolution reads takes effect on every instance within the cache's documented
// bound (README "Call cache and rate limits"), and the per-user rate limit holds across both
// within its stated error. Delays are measured, not timed: a call that still saw the old state
// must have started within the bound after the change was committed.
const { url: baseUrl, skipped } = testDatabase();
const BOUND_MS = DEFAULT_CACHE_OPTIONS.staleAfterMs;
// Clock reading and scheduling only; the rule itself needs none (see hostCache.ts).
const SLACK_MS = BOUND_MS / 4;
const RATE_PER_USER = 100;

type Instance = { readonly name: string; readonly app: Host['app'] };
type Answer = { readonly status: number; readonly body: Record<string, any> };

if (baseUrl === undefined) {
  describe.skip(`call cache across instances (${skipped})`, () => {
    it('needs PostgreSQL', () => {});
  });
} else {
  describe('call cache and rate limits across two instances on one PostgreSQL schema', {
    timeout: 60_000,
  }, () => {
    let schema: Awaited<ReturnType<typeof pgSchema>>;
    let a: TestHost;
    let b: Host;
    let instances: Instance[];
    // Mid-minute, so the rate limit's window does not turn over during the test.
    const now = () => new Date('2026-11-21T12:00:30Z');
    let traffic: Promise<void> | undefined;
    let flowing = true;

    const call = async (instance: Instance, token: string): Promise<Answer> => {
      const response = await instance.app.request(
        `/api/integrations/test-call-cache/actions/served?accountId=${a.accountId}`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        },
      );
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };

    /**
     * Calls every instance until `changed` holds, and answers for each how long after `committedAt`
     * the last call that still saw the old state started (0 when none did).
     */
    async function staleFor(
      token: string,
      committedAt: number,
      changed: (answer: Answer) => boolean,
    ): Promise<Record<string, number>> {
      const entries = await Promise.all(
        instances.map(async (instance) => {
          let lastStale = committedAt;
          const deadline = performance.now() + 20_000;
          for (;;) {
            const startedAt = performance.now();
            const answer = await call(instance, token);
            if (changed(answer)) break;
            lastStale = startedAt;
            if (performance.now() > deadline) {
              throw new Error(`${instance.name} still answers ${JSON.stringify(answer)}`);
            }
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          // It stays changed.
          for (let again = 0; again < 3; again += 1) expect(changed(await call(instance, token))).toBe(true);
          return [instance.name, Math.round(lastStale - committedAt)] as const;
        }),
      );
      return Object.fromEntries(entries);
    }

    /** Both instances answer `expected` to `token`, from a warm cache. */
    async function warm(token: string, expected: (answer: Answer) => boolean): Promise<void> {
      for (let round = 0; round < 4; round += 1) {
        for (const instance of instances) expect(expected(await call(instance, token))).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    const within = (delays: Record<string, number>) => {
      for (const delay of Object.values(delays)) expect(delay).toBeLessThanOrEqual(BOUND_MS + SLACK_MS);
    };

    beforeAll(async () => {
      schema = await pgSchema(baseUrl, 'callcache');
      const logger = pino({ level: 'silent' });
      const options = {
        databaseUrl: schema.url,
        logger,
        now,
        runtime: 'in-process' as const,
        limits: { ratePerUser: RATE_PER_USER, ratePerAccount: 1_000_000 },
      };
      a = await startTestHost({ ...options, projects: ['call-cache-v1'] });
      b = await createHost(options);
      instances = [
        { name: 'a', app: a.app },
        { name: 'b', app: b.app },
      ];
      // The owner's calls keep flowing through both instances for the whole test.
      traffic = (async () => {
        while (flowing) {
          for (const instance of instances) await call(instance, a.token).catch(() => undefined);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();
    });
    afterAll(async () => {
      flowing = false;
      await traffic;
      await b?.close();
      await a?.close();
      await schema?.drop();
    });

    it('refuses a revoked token on every instance within the bound (401)', async () => {
      const user = await a.addUser('member');
      await warm(user.token, (answer) => answer.status === 200);
      await revokeToken(a.db, user.token);
      const delays = await staleFor(
        user.token,
        performance.now(),
        (answer) => answer.status === 401 && answer.body.error?.reason === 'revoked',
      );
      within(delays);
    });

    it('refuses a removed member on every instance within the bound (403 forbidden)', async () => {
      const user = await a.addUser('member');
      await warm(user.token, (answer) => answer.status === 200);
      // Removed through the other instance: a learns it from the epoch only.
      await b.db.query('DELETE FROM memberships WHERE account_id = $1 AND user_id = $2', [
        a.accountId,
        user.userId,
      ]);
      const delays = await staleFor(
        user.token,
        performance.now(),
        (answer) => answer.status === 403 && answer.body.error?.code === 'forbidden',
      );
      within(delays);
    });

    it('runs a new live version on every instance within the bound', async () => {
      const user = await a.addUser('member');
      await warm(user.token, (answer) => answer.body.data?.served === 'v1');
      // A development install makes the new version live: the same change of live_version_id as a promotion.
      await installFixture(b, 'call-cache-v2');
      const delays = await staleFor(
        user.token,
        performance.now(),
        (answer) => answer.body.data?.served === 'v2',
      );
      within(delays);
    });

    it('refuses a deactivated integration on every instance within the bound (403 not_activated)', async () => {
      const user = await a.addUser('member');
      await warm(user.token, (answer) => answer.status === 200);
      await deleteActivation(a.db, 'test-call-cache', a.accountId);
      const delays = await staleFor(
        user.token,
        performance.now(),
        (answer) => answer.status === 403 && answer.body.error?.code === 'not_activated',
      );
      within(delays);
      await upsertActivation(a.db, {
        slug: 'test-call-cache',
        accountId: a.accountId,
        userId: a.userId,
        data: null,
      });
    });

    it('holds the per-user limit across both instances within its stated error', async () => {
      const user = await a.addUser('member');
      const calls: { at: number; status: number }[] = [];
      let firstRefusal: number | undefined;
      // Alternate the instances, paced (about 60 calls a second) so that the limit takes a few sync
      // intervals to reach, until both refuse, then past two sync intervals more.
      for (let index = 0; index < RATE_PER_USER * 4; index += 1) {
        const at = performance.now();
        const { status } = await call(instances[index % 2]!, user.token);
        calls.push({ at, status });
        await new Promise((resolve) => setTimeout(resolve, 15));
        if (status === 429) firstRefusal ??= at;
        if (firstRefusal !== undefined && at - firstRefusal > 2 * RATE_LIMIT_SYNC_MS + 500) break;
      }
      expect(new Set(calls.map((entry) => entry.status))).toEqual(new Set([200, 429]));
      const admitted = calls.filter((entry) => entry.status === 200).length;
      // The error stated in the README: what the instances admit in two sync intervals, plus slack
      // for a timer firing late on a loaded machine.
      const span = 2 * RATE_LIMIT_SYNC_MS + 2 * SLACK_MS;
      let error = 0;
      for (const [index, entry] of calls.entries()) {
        error = Math.max(error, calls.slice(index).filter((later) => later.at - entry.at <= span).length);
      }
      expect(admitted).toBeGreaterThanOrEqual(RATE_PER_USER);
      expect(admitted).toBeLessThanOrEqual(RATE_PER_USER + error);
      // Both instances refuse once they have synced.
      expect(calls.slice(-2).map((entry) => entry.status)).toEqual([429, 429]);
    });
  });
}
