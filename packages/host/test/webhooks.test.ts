import { createHmac } from 'node:crypto';
import { sign as githubSign } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeSecret } from '../src/store/secrets.js';
import { writeStorage } from '../src/store/storage.js';
import { partnerLog, startTestHost, type TestHost } from './_host.js';

const stripe = new Stripe('sk_test_x');
const SLUG = 'test-events';
const START = Date.parse('2026-11-22T10:00:30Z');
const SECRETS = {
  GITHUB_WEBHOOK_SECRET: 'gh-secret-1',
  STRIPE_WEBHOOK_SECRET: 'whsec_test_2',
  SLACK_SIGNING_SECRET: '8f742231b10e8888abcd99yyyzzz85a5',
  SHOPIFY_API_SECRET: 'shpss_4',
};

interface Seen {
  event: string;
  id: string;
  actor: string;
  userStorage: string;
}
// What the fixture's handlers saw, from their `seen` log lines.
const log = partnerLog();
const seen = () => log.reported<Seen>('seen', 'seen');

describe('webhook ingress', () => {
  let host: TestHost;
  let nowMs = START;
  let sourceId: string;
  const url = (webhookId: string, accountId = host.accountId, slug = SLUG) =>
    `/api/integrations/${slug}/webhooks/${webhookId}?accountId=${encodeURIComponent(accountId)}`;
  const post = (
    webhookId: string,
    body: string | Uint8Array<ArrayBuffer>,
    headers: Record<string, string> = {},
  ) =>
    host.app.request(url(webhookId), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  // The `flaky` handler throws while this says its vendor is down.
  const vendorDown = (down: boolean) =>
    writeStorage(
      host.db,
      { slug: SLUG, accountId: host.accountId, scope: 'account', userId: '' },
      'settings/vendor-status',
      { down },
    );
  const jobRows = async () =>
    (
      await host.db.query(
        'SELECT id, body, status, attempts, last_error FROM jobs WHERE integration_slug = $1 ORDER BY created_at',
        [SLUG],
      )
    ).rows;

  beforeAll(async () => {
    host = await startTestHost({
      logger: log.logger,
      projects: ['events'],
      now: () => new Date(nowMs),
      limits: { webhookBodyBytes: 64 * 1024 },
      events: { worker: { retry: { baseMs: 1000, maxMs: 60_000 } } },
    });
    sourceId = (await host.db.query('SELECT source_id FROM integrations WHERE slug = $1', [SLUG])).rows[0]!
      .source_id as string;
    for (const [name, value] of Object.entries(SECRETS)) {
      await writeSecret(host.db, host.services.secretBox, {
        scope: { slug: SLUG, accountId: host.accountId, sourceId },
        tier: 'account',
        name,
        value,
      });
    }
  });
  afterAll(async () => {
    await host?.close();
  });
  beforeEach(async () => {
    nowMs = START;
    log.clear();
    await vendorDown(false);
    await host.db.query('DELETE FROM jobs');
  });

  it('GitHub style: stores the raw body byte for byte, answers 202, runs the handler as a machine actor', async () => {
    // Odd spacing, a non-ASCII character and an escaped line separator: any re-encoding would show.
    const body = '{"id":"g1",  "action":"opened","note":"caf\u00e9 \\u2028"}\n';
    const signature = await githubSign(SECRETS.GITHUB_WEBHOOK_SECRET, body);
    const response = await post('github-push', body, { 'X-Hub-Signature-256': signature });
    expect(response.status).toBe(202);
    const { data } = (await response.json()) as { data: { deliveryId: string } };
    const rows = await jobRows();
    expect(rows).toEqual([expect.objectContaining({ id: data.deliveryId, body, status: 'queued' })]);
    expect(seen()).toEqual([]);

    expect(await host.events.worker.drain()).toBe(1);
    expect(seen()).toEqual([
      { event: 'github-push', id: 'g1', actor: 'machine', userStorage: 'MachineActorStorageError' },
    ]);
    expect((await jobRows())[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
    const stored = await host.db.query(
      "SELECT value FROM storage WHERE integration_slug = $1 AND key = 'sync_state/last-event'",
      [SLUG],
    );
    expect(stored.rows[0]?.value).toEqual({ id: 'g1' });
  });

  it('GitHub style: refuses a tampered body, a wrong secret and a missing header with 401 and no hint', async () => {
    const body = '{"id":"g2","action":"opened"}';
    const good = await githubSign(SECRETS.GITHUB_WEBHOOK_SECRET, body);
    const attempts = [
      post('github-push', body.replace('g2', 'g3'), { 'X-Hub-Signature-256': good }),
      post('github-push', body, { 'X-Hub-Signature-256': await githubSign('wrong', body) }),
      post('github-push', body),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(401);
      const text = await response.text();
      expect(JSON.parse(text).error.code).toBe('invalid_signature');
      expect(text).not.toContain(good.slice('sha256='.length, 'sha256='.length + 12));
    }
    expect(await jobRows()).toEqual([]);
  });

  it('Stripe style: accepts the stripe package test header; refuses stale timestamps and replays', async () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded' });
    const header = stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: SECRETS.STRIPE_WEBHOOK_SECRET,
      timestamp: Math.floor(nowMs / 1000),
    });
    expect((await post('stripe-event', body, { 'Stripe-Signature': header })).status).toBe(202);
    const stale = stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: SECRETS.STRIPE_WEBHOOK_SECRET,
      timestamp: Math.floor(nowMs / 1000) - 301,
    });
    const staleResponse = await post('stripe-event', body, { 'Stripe-Signature': stale });
    expect(staleResponse.status).toBe(401);
    expect(((await staleResponse.json()) as { error: { message: string } }).error.message).toContain(
      'tolerance',
    );
    // The same signed request sent again after the replay window.
    nowMs += 6 * 60_000;
    expect((await post('stripe-event', body, { 'Stripe-Signature': header })).status).toBe(401);
    const tampered = body.replace('evt_1', 'evt_2');
    expect((await post('stripe-event', tampered, { 'Stripe-Signature': header })).status).toBe(401);
    expect(await host.events.worker.drain()).toBe(1);
    expect(seen().map((event) => event.id)).toEqual(['evt_1']);
  });

  it("Slack style (published recipe): v0 HMAC of 'v0:{timestamp}:{body}' with the timestamp header", async () => {
    const body = '{"id":"slack-1"}';
    const timestamp = String(Math.floor(nowMs / 1000));
    const signature = `v0=${createHmac('sha256', SECRETS.SLACK_SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    const headers = { 'X-Slack-Signature': signature, 'X-Slack-Request-Timestamp': timestamp };
    expect((await post('slack-event', body, headers)).status).toBe(202);
    expect(
      (
        await post('slack-event', body, {
          ...headers,
          'X-Slack-Request-Timestamp': String(Number(timestamp) + 1),
        })
      ).status,
    ).toBe(401);
    nowMs += 301_000;
    expect((await post('slack-event', body, headers)).status).toBe(401);
  });

  it('Shopify style (published recipe): base64 HMAC-SHA256 of the raw body', async () => {
    const body = '{"id":"order-1"}';
    const digest = createHmac('sha256', SECRETS.SHOPIFY_API_SECRET).update(body).digest('base64');
    expect((await post('shopify-order', body, { 'X-Shopify-Hmac-Sha256': digest })).status).toBe(202);
    expect((await post('shopify-order', `${body} `, { 'X-Shopify-Hmac-Sha256': digest })).status).toBe(401);
  });

  it('reads the signing secret through the tiers: the account tier first, then the source tier', async () => {
    const body = '{"id":"order-2"}';
    const scope = { slug: SLUG, accountId: host.accountId, sourceId };
    await writeSecret(host.db, host.services.secretBox, {
      scope,
      tier: 'source',
      name: 'SHOPIFY_API_SECRET',
      value: 'source-tier-secret',
    });
    const sign = (secret: string) => createHmac('sha256', secret).update(body).digest('base64');
    expect(
      (await post('shopify-order', body, { 'X-Shopify-Hmac-Sha256': sign('source-tier-secret') })).status,
    ).toBe(401);
    await host.db.query("DELETE FROM secrets WHERE tier = 'account' AND name = 'SHOPIFY_API_SECRET'");
    expect(
      (await post('shopify-order', body, { 'X-Shopify-Hmac-Sha256': sign('source-tier-secret') })).status,
    ).toBe(202);
    await writeSecret(host.db, host.services.secretBox, {
      scope,
      tier: 'account',
      name: 'SHOPIFY_API_SECRET',
      value: SECRETS.SHOPIFY_API_SECRET,
    });
  });

  it('answers 400 with issues for a payload failing its schema (zod 4 and zod 3), and for non-JSON', async () => {
    const body = '{"id":7}';
    const response = await post('github-push', body, {
      'X-Hub-Signature-256': await githubSign(SECRETS.GITHUB_WEBHOOK_SECRET, body),
    });
    expect(response.status).toBe(400);
    const payload = (await response.json()) as { error: { code: string; issues: unknown[] } };
    expect(payload.error.code).toBe('invalid_payload');
    expect(payload.error.issues.length).toBeGreaterThan(0);

    const zod3Body = '{"id":"evt_3"}';
    const header = stripe.webhooks.generateTestHeaderString({
      payload: zod3Body,
      secret: SECRETS.STRIPE_WEBHOOK_SECRET,
      timestamp: Math.floor(nowMs / 1000),
    });
    const zod3 = await post('stripe-event', zod3Body, { 'Stripe-Signature': header });
    expect(zod3.status).toBe(400);
    expect(((await zod3.json()) as { error: { issues: unknown[] } }).error.issues).toEqual([
      expect.objectContaining({ path: ['type'] }),
    ]);

    expect((await post('flaky', 'not json')).status).toBe(400);
    expect((await post('flaky', new Uint8Array([0x7b, 0xff, 0x7d]))).status).toBe(400);
    expect(await jobRows()).toEqual([]);
  });

  it('answers 404 for an unknown integration, an unknown webhook and an account without the integration', async () => {
    const body = '{"id":"x"}';
    const unknownSlug = await host.app.request(url('flaky', host.accountId, 'no-such'), {
      method: 'POST',
      body,
    });
    expect(unknownSlug.status).toBe(404);
    expect(((await unknownSlug.json()) as { error: { code: string } }).error.code).toBe(
      'integration_not_found',
    );
    const unknownWebhook = await post('no-such-hook', body);
    expect(((await unknownWebhook.json()) as { error: { code: string } }).error.code).toBe(
      'webhook_not_found',
    );
    const inactive = await host.app.request(url('flaky', 'another-account'), { method: 'POST', body });
    expect(inactive.status).toBe(404);
    expect(((await inactive.json()) as { error: { code: string } }).error.code).toBe('not_activated');
    expect(await jobRows()).toEqual([]);
  });

  it('answers 413 for a body over the webhook limit', async () => {
    const body = JSON.stringify({ id: 'big', pad: 'x'.repeat(65 * 1024) });
    const response = await post('flaky', body);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('retries a throwing handler with exponential backoff, then succeeds', async () => {
    await vendorDown(true);
    expect((await post('flaky', '{"id":"f1"}')).status).toBe(202);
    expect(await host.events.worker.drain()).toBe(1);
    expect((await jobRows())[0]).toMatchObject({ status: 'queued', attempts: 1 });
    nowMs += 999;
    expect(await host.events.worker.drain()).toBe(0);
    nowMs += 1;
    expect(await host.events.worker.drain()).toBe(1);
    // Second retry waits twice as long.
    nowMs += 1999;
    expect(await host.events.worker.drain()).toBe(0);
    expect((await jobRows())[0]).toMatchObject({ status: 'queued', attempts: 2 });
    await vendorDown(false);
    nowMs += 1;
    expect(await host.events.worker.drain()).toBe(1);
    expect((await jobRows())[0]).toMatchObject({ status: 'succeeded', attempts: 3 });
    expect(seen().map((event) => event.event)).toEqual(['flaky']);
  });

  it('marks a delivery failed after its last attempt; the log (route) shows it with the error redacted', async () => {
    await vendorDown(true);
    expect((await post('flaky', '{"id":"f2"}')).status).toBe(202);
    for (let attempt = 0; attempt < 6; attempt += 1) {
      await host.events.worker.drain();
      nowMs += 60_000;
    }
    const [row] = await jobRows();
    expect(row).toMatchObject({ status: 'failed', attempts: 5 });

    const response = await host.call(`/api/integrations/${SLUG}/deliveries?accountId=${host.accountId}`);
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { entries: Record<string, unknown>[] } };
    expect(data.entries).toEqual([
      expect.objectContaining({
        kind: 'webhook',
        target: 'flaky',
        status: 'failed',
        attempts: 5,
        durationMs: expect.any(Number),
      }),
    ]);
    const error = data.entries[0]!.error as string;
    expect(error).toContain('vendor down');
    expect(error).not.toContain('hunter2');
    expect(error).not.toContain('token=abc');
    const anonymous = await host.app.request(
      `/api/integrations/${SLUG}/deliveries?accountId=${host.accountId}`,
    );
    expect(anonymous.status).toBe(401);
  });

  it('runs jobs claimed by a worker that died once its lease has expired', async () => {
    expect((await post('flaky', '{"id":"f3"}')).status).toBe(202);
    // A worker that claims and then vanishes: the lease is all that is left of it.
    await host.db.query(
      "UPDATE jobs SET status = 'running', locked_by = 'dead', locked_until = $1, attempts = 1",
      [new Date(nowMs + 30_000)],
    );
    expect(await host.events.worker.drain()).toBe(0);
    nowMs += 30_000;
    expect(await host.events.worker.drain()).toBe(1);
    expect((await jobRows())[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
  });
});
