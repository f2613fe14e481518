import { createHmac, randomBytes } from 'node:crypto';
import { Signature as HubSpotSignature } from '@hubspot/api-client';
import { sign as githubSign, verify as githubVerify } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeSecret } from '../src/store/secrets.js';
import { startTestHost, type TestHost } from './_host.js';
import { captureLog } from './_logCapture.js';

// Signed webhooks end to end through the ingress, each signed the way its vendor signs: by the
// vendor's own library where it has a signing function (GitHub's @octokit/webhooks-methods,
// Standard Webhooks' standardwebhooks, HubSpot's @hubspot/api-client), else by the vendor's
// documented recipe on node:crypto, cross-checked with the vendor library's verifier (Slack's
// @slack/bolt). The fixture's handlers log what they saw (`seen`), read back as an operator would.

const SLUG = 'test-vendors';
const PUBLIC_ORIGIN = 'https://platform.example.test';
const SECRETS = {
  SLACK_SIGNING_SECRET: '8f742231b10e8888abcd99yyyzzz85a5',
  HUBSPOT_CLIENT_SECRET: 'hubspot-app-client-secret',
  GITHUB_WEBHOOK_SECRET: 'gh-vendor-secret',
  STANDARD_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
};
const FORM = 'application/x-www-form-urlencoded';

interface Seen {
  webhook: string;
  payload: unknown;
  method: string;
  contentType: string | null;
  headers: Record<string, string>;
  rawBody: string;
  frozen: boolean;
}

describe('vendor webhooks through the ingress', () => {
  const log = captureLog();
  const lines = () =>
    log
      .text()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const seen = () =>
    lines()
      .filter((line) => line.partner === true && line.msg === 'seen')
      .map((line) => line.seen as Seen);
  let host: TestHost;
  // The vendor libraries read the real clock, so the host's clock starts from it.
  let nowMs = Date.now();
  const path = (webhookId: string) =>
    `/api/integrations/${SLUG}/webhooks/${webhookId}?accountId=${encodeURIComponent(host.accountId)}`;
  const post = (webhookId: string, body: string, headers: Record<string, string>) =>
    host.app.request(path(webhookId), { method: 'POST', headers, body });
  const jobRows = async () =>
    (
      await host.db.query(
        'SELECT body, request_method, request_headers, request_content_type FROM jobs WHERE integration_slug = $1 ORDER BY created_at',
        [SLUG],
      )
    ).rows;
  const queued = async () =>
    (
      await host.db.query("SELECT payload->>'target' AS target, body FROM jobs WHERE integration_slug = $1", [
        SLUG,
      ])
    ).rows;

  beforeAll(async () => {
    host = await startTestHost({
      logger: log.logger,
      projects: ['vendors'],
      now: () => new Date(nowMs),
      publicOrigin: PUBLIC_ORIGIN,
    });
    const sourceId = (await host.db.query('SELECT source_id FROM integrations WHERE slug = $1', [SLUG]))
      .rows[0]!.source_id as string;
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
    nowMs = Date.now();
    log.clear();
    await host.db.query('DELETE FROM jobs');
  });

  describe('Slack (v0:{timestamp}:{body}, form-encoded commands, url_verification)', () => {
    // Slack's documented recipe: v0= hex HMAC-SHA256 of `v0:<timestamp>:<raw body>`.
    const slackHeaders = (body: string, timestamp = Math.floor(nowMs / 1000)) => ({
      'X-Slack-Request-Timestamp': String(timestamp),
      'X-Slack-Signature': `v0=${createHmac('sha256', SECRETS.SLACK_SIGNING_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`,
    });

    it("signs as Slack's own verifier (@slack/bolt) accepts", async () => {
      // Loaded here, so the other tests run where the package is not installed yet.
      const { verifySlackRequest } = await import('@slack/bolt');
      const body = 'command=%2Fnote&text=hi&user_id=U1';
      const headers = slackHeaders(body);
      expect(() =>
        verifySlackRequest({
          signingSecret: SECRETS.SLACK_SIGNING_SECRET,
          body,
          headers: {
            'x-slack-signature': headers['X-Slack-Signature'],
            'x-slack-request-timestamp': Number(headers['X-Slack-Request-Timestamp']),
          },
          nowMilliseconds: nowMs,
        }),
      ).not.toThrow();
      expect(() =>
        verifySlackRequest({
          signingSecret: 'another-secret',
          body,
          headers: {
            'x-slack-signature': headers['X-Slack-Signature'],
            'x-slack-request-timestamp': Number(headers['X-Slack-Request-Timestamp']),
          },
          nowMilliseconds: nowMs,
        }),
      ).toThrow(/signature mismatch/);
    });

    it('answers the url_verification challenge at once from the reply, and queues nothing', async () => {
      const body = JSON.stringify({
        token: 'legacy',
        challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
        type: 'url_verification',
      });
      const response = await post('slack', body, {
        'content-type': 'application/json',
        ...slackHeaders(body),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({
        challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
      });
      expect(await queued()).toEqual([]);
      expect(await host.events.worker.drain()).toBe(0);
      expect(seen()).toEqual([]);
    });

    it('refuses a forged challenge before the reply runs (no echo for an unsigned caller)', async () => {
      const body = JSON.stringify({ token: 't', challenge: 'forged', type: 'url_verification' });
      const response = await post('slack', body, {
        'content-type': 'application/json',
        ...slackHeaders(body.replace('forged', 'other')),
      });
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain('forged');
    });

    it('queues a form-encoded slash command; the handler gets the form-parsed payload and the headers', async () => {
      const body = 'command=%2Fnote&text=buy+milk+%26+eggs&user_id=U2147483697&channel=C1&channel=C2';
      const response = await post('slack', body, {
        'Content-Type': `${FORM}; charset=utf-8`,
        'X-Slack-Retry-Num': '1',
        ...slackHeaders(body),
      });
      expect(response.status).toBe(202);
      expect(await queued()).toEqual([{ target: 'slack', body }]);
      expect(await host.events.worker.drain()).toBe(1);
      expect(seen()).toEqual([
        {
          webhook: 'slack',
          payload: {
            command: '/note',
            text: 'buy milk & eggs',
            user_id: 'U2147483697',
            channel: ['C1', 'C2'],
          },
          method: 'POST',
          contentType: `${FORM}; charset=utf-8`,
          headers: expect.objectContaining({
            'content-type': `${FORM}; charset=utf-8`,
            'x-slack-retry-num': '1',
            'x-slack-request-timestamp': String(Math.floor(nowMs / 1000)),
          }),
          rawBody: body,
          frozen: true,
        },
      ]);
    });

    it('queues a JSON event_callback (no reply for it)', async () => {
      const body = JSON.stringify({
        type: 'event_callback',
        event_id: 'Ev1',
        event: { type: 'app_mention' },
      });
      const response = await post('slack', body, {
        'content-type': 'application/json',
        ...slackHeaders(body),
      });
      expect(response.status).toBe(202);
      expect(await host.events.worker.drain()).toBe(1);
      expect(seen()[0]).toMatchObject({
        webhook: 'slack',
        payload: { event_id: 'Ev1' },
        contentType: 'application/json',
      });
    });

    it('refuses a form body sent as JSON (400) and a stale Slack timestamp (401)', async () => {
      const body = 'command=%2Fnote&text=x&user_id=U1';
      expect(
        (await post('slack', body, { 'content-type': 'application/json', ...slackHeaders(body) })).status,
      ).toBe(400);
      const stale = slackHeaders(body, Math.floor(nowMs / 1000) - 301);
      expect((await post('slack', body, { 'content-type': FORM, ...stale })).status).toBe(401);
      expect(await queued()).toEqual([]);
    });
  });

  describe('HubSpot v3 (method + URL + body + timestamp in ms)', () => {
    const body = JSON.stringify([{ eventId: 100, subscriptionType: 'contact.creation', objectId: 123 }]);
    // HubSpot's own library computes the signature.
    const hubspotHeaders = (url: string, timestamp = nowMs) => ({
      'content-type': 'application/json',
      'X-HubSpot-Request-Timestamp': String(timestamp),
      'X-HubSpot-Signature-v3': HubSpotSignature.getSignature('POST', 'v3', {
        signature: '',
        clientSecret: SECRETS.HUBSPOT_CLIENT_SECRET,
        requestBody: body,
        url,
        timestamp,
      }),
    });

    it('verifies against the public origin with the path and query as received, and queues it', async () => {
      const url = `${PUBLIC_ORIGIN}${path('hubspot')}`;
      const headers = hubspotHeaders(url);
      // HubSpot's own check accepts the same request.
      expect(
        HubSpotSignature.isValid({
          signatureVersion: 'v3',
          signature: headers['X-HubSpot-Signature-v3'],
          clientSecret: SECRETS.HUBSPOT_CLIENT_SECRET,
          requestBody: body,
          url,
          method: 'POST',
          timestamp: nowMs,
        }),
      ).toBe(true);
      expect((await post('hubspot', body, headers)).status).toBe(202);
      expect(await host.events.worker.drain()).toBe(1);
      expect(seen()).toEqual([
        expect.objectContaining({
          webhook: 'hubspot',
          payload: [{ eventId: 100, subscriptionType: 'contact.creation', objectId: 123 }],
          headers: expect.objectContaining({ 'x-hubspot-request-timestamp': String(nowMs) }),
        }),
      ]);
    });

    it("refuses a signature over the request's own origin (the vendor called the public one), another query, and a stale ms timestamp", async () => {
      expect((await post('hubspot', body, hubspotHeaders(`http://localhost${path('hubspot')}`))).status).toBe(
        401,
      );
      expect(
        (await post('hubspot', body, hubspotHeaders(`${PUBLIC_ORIGIN}${path('hubspot')}&x=1`))).status,
      ).toBe(401);
      const url = `${PUBLIC_ORIGIN}${path('hubspot')}`;
      const stale = await post('hubspot', body, hubspotHeaders(url, nowMs - 300_001));
      expect(stale.status).toBe(401);
      expect(((await stale.json()) as { error: { message: string } }).error.message).toContain('tolerance');
      // 299 s old is inside the window: milliseconds are read as milliseconds.
      expect((await post('hubspot', body, hubspotHeaders(url, nowMs - 299_000))).status).toBe(202);
    });
  });

  describe('GitHub (X-Hub-Signature-256, X-GitHub-Event)', () => {
    it('gives the handler X-GitHub-Event and X-GitHub-Delivery, and never a credential header', async () => {
      const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
      const signature = await githubSign(SECRETS.GITHUB_WEBHOOK_SECRET, body);
      expect(await githubVerify(SECRETS.GITHUB_WEBHOOK_SECRET, body, signature)).toBe(true);
      const response = await post('github', body, {
        'content-type': 'application/json',
        'X-Hub-Signature-256': signature,
        'X-GitHub-Event': 'ping',
        'X-GitHub-Delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
        'User-Agent': 'GitHub-Hookshot/044aadd',
        Authorization: 'Bearer ghp_never-to-partner',
        'Proxy-Authorization': 'Basic never-to-partner',
        Cookie: 'session=never-to-partner',
        'X-Api-Key': 'never-to-partner',
      });
      expect(response.status).toBe(202);
      const [row] = await jobRows();
      expect(row).toMatchObject({ request_method: 'POST', request_content_type: 'application/json' });
      expect(JSON.stringify(row!.request_headers)).not.toContain('never-to-partner');
      expect(await host.events.worker.drain()).toBe(1);
      const [delivery] = seen();
      expect(delivery).toMatchObject({
        webhook: 'github',
        payload: { zen: 'Keep it logically awesome.', hook_id: 1 },
        headers: {
          'x-github-event': 'ping',
          'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
          'user-agent': 'GitHub-Hookshot/044aadd',
        },
      });
      for (const name of ['authorization', 'proxy-authorization', 'cookie', 'x-api-key']) {
        expect(delivery!.headers).not.toHaveProperty(name);
      }
      expect(log.text()).not.toContain('never-to-partner');
    });

    it('gives every retry the same request', async () => {
      const body = JSON.stringify({ action: 'opened' });
      const headers = {
        'content-type': 'application/json',
        'X-Hub-Signature-256': await githubSign(SECRETS.GITHUB_WEBHOOK_SECRET, body),
        'X-GitHub-Event': 'pull_request',
      };
      expect((await post('github', body, headers)).status).toBe(202);
      // A worker died holding it: the next claim runs it again from the stored row.
      await host.db.query(
        "UPDATE jobs SET status = 'running', locked_by = 'dead', locked_until = $1, attempts = 1",
        [new Date(nowMs - 1)],
      );
      expect(await host.events.worker.drain()).toBe(1);
      expect(seen()[0]?.headers['x-github-event']).toBe('pull_request');
    });
  });

  describe('Standard Webhooks ({header:webhook-id}.{timestamp}.{body}, whsec_ secret)', () => {
    const vendor = new StandardWebhook(SECRETS.STANDARD_WEBHOOK_SECRET);
    const body = JSON.stringify({ type: 'invoice.paid', data: { id: 'inv_1', amount: 4200 } });
    const standardHeaders = (id: string, at = new Date(nowMs)) => ({
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': vendor.sign(id, at, body),
    });

    it('accepts what the standardwebhooks library signs; the handler sees webhook-id', async () => {
      const headers = standardHeaders('msg_2KWPBgLlAfxdpx2AI54pPJ85f4W');
      expect(vendor.verify(body, headers)).toEqual(JSON.parse(body));
      expect((await post('standard', body, headers)).status).toBe(202);
      expect(await host.events.worker.drain()).toBe(1);
      expect(seen()[0]).toMatchObject({
        webhook: 'standard',
        payload: { type: 'invoice.paid', data: { id: 'inv_1', amount: 4200 } },
        headers: { 'webhook-id': 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W' },
      });
    });

    it('accepts a rotated key list; refuses another message id, a missing id and a stale timestamp', async () => {
      const headers = standardHeaders('msg_1');
      const other = new StandardWebhook(`whsec_${randomBytes(24).toString('base64')}`).sign(
        'msg_1',
        new Date(nowMs),
        body,
      );
      expect(
        (
          await post('standard', body, {
            ...headers,
            'webhook-signature': `${other} ${headers['webhook-signature']}`,
          })
        ).status,
      ).toBe(202);
      expect((await post('standard', body, { ...headers, 'webhook-id': 'msg_2' })).status).toBe(401);
      const { 'webhook-id': _id, ...noId } = headers;
      const missing = await post('standard', body, noId);
      expect(missing.status).toBe(401);
      expect(((await missing.json()) as { error: { message: string } }).error.message).toContain(
        'missing header "webhook-id"',
      );
      expect((await post('standard', body, standardHeaders('msg_3', new Date(nowMs - 301_000)))).status).toBe(
        401,
      );
      expect(log.security('webhook_forged').map((event) => event.reason)).toEqual([
        'mismatch',
        'missing_header',
        'stale_timestamp',
      ]);
    });
  });

  describe('a signing secret the scheme cannot read', () => {
    it('refuses with 401 and logs `misconfigured` for a whsec_ secret that is not base64, never crashing', async () => {
      const sourceId = (await host.db.query('SELECT source_id FROM integrations WHERE slug = $1', [SLUG]))
        .rows[0]!.source_id as string;
      const store = (value: string) =>
        writeSecret(host.db, host.services.secretBox, {
          scope: { slug: SLUG, accountId: host.accountId, sourceId },
          tier: 'account',
          name: 'STANDARD_WEBHOOK_SECRET',
          value,
        });
      await store('whsec_not*base64!');
      try {
        const body = JSON.stringify({ type: 'invoice.paid', data: {} });
        const response = await post('standard', body, {
          'content-type': 'application/json',
          'webhook-id': 'msg_1',
          'webhook-timestamp': String(Math.floor(nowMs / 1000)),
          'webhook-signature': 'v1,AAAA',
        });
        expect(response.status).toBe(401);
        expect(await response.text()).not.toContain('not*base64');
        expect(log.security('webhook_forged').map((event) => event.reason)).toEqual(['misconfigured']);
        expect(log.text()).not.toContain('not*base64');
      } finally {
        await store(SECRETS.STANDARD_WEBHOOK_SECRET);
      }
    });
  });

  describe('replies that misbehave', () => {
    const ask = (want: string) =>
      post('replies', JSON.stringify({ want }), { 'content-type': 'application/json' });
    const failures = () => lines().filter((line) => line.msg === 'webhook reply failed; nothing was queued');

    it('answers a 4xx reply as given', async () => {
      const response = await ask('teapot');
      expect(response.status).toBe(418);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toBe('short and stout');
      expect(await queued()).toEqual([]);
    });

    it.each([
      ['a redirect status', 'redirect', 'status 302 is not allowed'],
      ['a set-cookie header', 'cookie', 'header "set-cookie" is not allowed'],
      ['a throwing reply', 'throw', 'reply failed: Error: reply broke; see https://api.vendor.test/x?...'],
    ])(
      'refuses %s with 500 handler_error, queues nothing and logs the reason',
      async (_name, want, reason) => {
        const response = await ask(want);
        expect(response.status).toBe(500);
        const answer = (await response.json()) as { error: { code: string; message: string } };
        expect(answer.error.code).toBe('handler_error');
        expect(answer.error.message).toContain('Nothing was queued');
        expect(answer.error.message).not.toContain('evil.example');
        expect(answer.error.message).not.toContain('hunter2');
        expect(response.headers.get('location')).toBeNull();
        expect(response.headers.get('set-cookie')).toBeNull();
        expect(await queued()).toEqual([]);
        expect(failures()).toEqual([
          expect.objectContaining({
            integration: SLUG,
            webhookId: 'replies',
            reason: expect.stringContaining(reason),
          }),
        ]);
        expect(log.text()).not.toContain('hunter2');
      },
    );

    it('answers 500 when the reply runs past its budget, and queues nothing', async () => {
      const response = await ask('hang');
      expect(response.status).toBe(500);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
        `within its ${host.services.limits.webhookReplyTimeoutMs} ms budget`,
      );
      expect(await queued()).toEqual([]);
    });

    it('queues when the reply answers undefined', async () => {
      expect((await ask('queue')).status).toBe(202);
      expect(await host.events.worker.drain()).toBe(1);
      expect(seen()[0]).toMatchObject({ webhook: 'replies', payload: { want: 'queue' } });
    });
  });
});
