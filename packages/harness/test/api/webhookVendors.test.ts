import { createHmac } from 'node:crypto';
import type { HarnessRegistryEntry } from '@platform/harness';
import { defineIntegration } from '@platform/sdk/integration';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { harness, send } from './_helpers.js';

// The webhook trigger builds deliveries as vendors send them, with the ingress's own rules (the
// sdk's webhookRequest module): form bodies, extra headers, the header view, signed headers and
// URLs, and a webhook's synchronous reply.

const NOW = new Date('2030-01-02T03:04:05Z');
const STANDARD_SECRET = `whsec_${Buffer.from('a-32-byte-standard-webhooks-key!').toString('base64')}`;

const definition = defineIntegration({
  slug: 'vendors',
  webhooks: [
    {
      id: 'slack',
      payloadSchema: z.union([
        z.object({ type: z.literal('url_verification'), challenge: z.string() }),
        z.object({ command: z.string(), text: z.string(), channel: z.array(z.string()).optional() }),
      ]),
      signature: {
        header: 'X-Slack-Signature',
        secretName: 'SLACK_SIGNING_SECRET',
        scheme: {
          format: 'keyed',
          digestKey: 'v0',
          timestampHeader: 'X-Slack-Request-Timestamp',
          signedPayload: 'v0:{timestamp}:{body}',
          toleranceSeconds: 300,
        },
      },
      reply: (payload) => ('challenge' in payload ? { body: payload.challenge } : undefined),
      handler: async (ctx, payload, request) => {
        ctx.logger.info('slack', { payload, headers: request.headers, contentType: request.contentType });
      },
    },
    {
      id: 'github',
      payloadSchema: z.object({ zen: z.string() }),
      signature: { header: 'X-Hub-Signature-256', secretName: 'GITHUB_WEBHOOK_SECRET' },
      handler: async (ctx, _payload, request) => {
        ctx.logger.info(`event ${request.headers['x-github-event']}`, {
          names: Object.keys(request.headers),
        });
      },
    },
    {
      id: 'standard',
      payloadSchema: z.object({ type: z.string() }),
      signature: {
        header: 'webhook-signature',
        secretName: 'STANDARD_WEBHOOK_SECRET',
        scheme: {
          format: 'versioned',
          digestKey: 'v1',
          secretEncoding: 'base64',
          timestampHeader: 'webhook-timestamp',
          signedPayload: '{header:webhook-id}.{timestamp}.{body}',
          toleranceSeconds: 300,
        },
      },
      handler: async (ctx, _payload, request) => ctx.logger.info(`id ${request.headers['webhook-id']}`),
    },
    {
      id: 'hubspot',
      payloadSchema: z.array(z.object({ eventId: z.number() })),
      signature: {
        header: 'X-HubSpot-Signature-v3',
        secretName: 'HUBSPOT_CLIENT_SECRET',
        scheme: {
          timestampHeader: 'X-HubSpot-Request-Timestamp',
          timestampUnit: 'milliseconds',
          signedPayload: '{method}{url}{body}{timestamp}',
          toleranceSeconds: 300,
        },
      },
      handler: async () => {},
    },
    {
      id: 'bad-reply',
      payloadSchema: z.object({}),
      reply: () => ({ status: 302 }),
      handler: async (ctx) => ctx.logger.info('never runs'),
    },
  ],
});

const entry: HarnessRegistryEntry = {
  slug: 'vendors',
  name: 'Vendors',
  description: 'Webhooks as vendors send them',
  widgets: [],
  definition,
  triggerMocks: {
    secrets: {
      account: {
        SLACK_SIGNING_SECRET: 'slack-secret',
        GITHUB_WEBHOOK_SECRET: 'github-secret',
        STANDARD_WEBHOOK_SECRET: STANDARD_SECRET,
        HUBSPOT_CLIENT_SECRET: 'hubspot-secret',
      },
    },
  },
};
const trigger = (id: string) => `/api/integrations/vendors/triggers/webhooks/${id}`;
const FORM = 'application/x-www-form-urlencoded';

describe('harness trigger: webhooks as vendors send them', () => {
  it('answers a url_verification with the reply and runs no handler', async () => {
    const { handlers } = await harness([entry], { now: () => NOW });
    const answer = await send(handlers, 'POST', trigger('slack'), {
      body: { payload: { type: 'url_verification', challenge: 'c-123' } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      queued: false,
      reply: { status: 200, body: 'c-123', contentType: 'text/plain; charset=utf-8' },
      result: { ok: true },
      logs: [],
      signature: { verified: true },
    });
  });

  it('sends a form-encoded command signed as Slack does; the handler gets the parsed form and the headers', async () => {
    const { handlers } = await harness([entry], { now: () => NOW });
    const answer = await send(handlers, 'POST', trigger('slack'), {
      body: {
        payload: { command: '/note', text: 'buy milk', channel: ['C1', 'C2'] },
        contentType: FORM,
        headers: { 'X-Slack-Retry-Num': '1', Authorization: 'Bearer hidden' },
      },
    });
    expect(answer.status).toBe(200);
    const { data } = answer.body;
    expect(data).toMatchObject({ queued: true, result: { ok: true } });
    const rawBody = 'command=%2Fnote&text=buy+milk&channel=C1&channel=C2';
    // Slack's documented recipe over the same bytes gives the same signature.
    const timestamp = String(NOW.getTime() / 1000);
    expect(data.signature.headers).toEqual({
      'X-Slack-Signature': `v0=${createHmac('sha256', 'slack-secret').update(`v0:${timestamp}:${rawBody}`).digest('hex')}`,
      'X-Slack-Request-Timestamp': timestamp,
    });
    expect(data.logs).toEqual([
      {
        level: 'info',
        message: 'slack',
        fields: {
          payload: { command: '/note', text: 'buy milk', channel: ['C1', 'C2'] },
          headers: {
            'content-type': FORM,
            'x-slack-retry-num': '1',
            'x-slack-request-timestamp': timestamp,
            'x-slack-signature': data.signature.headers['X-Slack-Signature'],
          },
          contentType: FORM,
        },
      },
    ]);
    expect(data.request).toEqual({ method: 'POST', headers: data.logs[0].fields.headers, contentType: FORM });
  });

  it('passes X-GitHub-Event to the handler and never a credential header', async () => {
    const { handlers } = await harness([entry]);
    const answer = await send(handlers, 'POST', trigger('github'), {
      body: {
        payload: { zen: 'Design for failure.' },
        headers: { 'X-GitHub-Event': 'ping', Cookie: 'sid=1' },
      },
    });
    expect(answer.body.data.logs).toEqual([
      {
        level: 'info',
        message: 'event ping',
        fields: { names: ['content-type', 'x-github-event', 'x-hub-signature-256'] },
      },
    ]);
  });

  it('generates the signed webhook-id it was not given; the standardwebhooks library accepts the signature', async () => {
    const { handlers } = await harness([entry], { now: () => NOW });
    const payload = { type: 'invoice.paid' };
    const answer = await send(handlers, 'POST', trigger('standard'), { body: { payload } });
    expect(answer.body.data.result).toEqual({ ok: true });
    const { headers } = answer.body.data.signature;
    const id = answer.body.data.request.headers['webhook-id'];
    expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(answer.body.data.logs).toEqual([{ level: 'info', message: `id ${id}` }]);
    expect(headers['webhook-signature']).toBe(
      new StandardWebhook(STANDARD_SECRET).sign(id, NOW, JSON.stringify(payload)),
    );
    const given = await send(handlers, 'POST', trigger('standard'), {
      body: { payload, headers: { 'webhook-id': 'msg_given' } },
    });
    expect(given.body.data.logs).toEqual([{ level: 'info', message: 'id msg_given' }]);
  });

  it('signs HubSpot v3 over the ingress-shaped URL in milliseconds', async () => {
    const { handlers } = await harness([entry], { now: () => NOW });
    const answer = await send(handlers, 'POST', trigger('hubspot'), { body: { payload: [{ eventId: 1 }] } });
    expect(answer.body.data.result).toEqual({ ok: true });
    const url = 'http://localhost:5173/api/integrations/vendors/webhooks/hubspot';
    const expected = createHmac('sha256', 'hubspot-secret')
      .update(`POST${url}${JSON.stringify([{ eventId: 1 }])}${NOW.getTime()}`)
      .digest('hex');
    expect(answer.body.data.signature.headers).toEqual({
      'X-HubSpot-Signature-v3': `sha256=${expected}`,
      'X-HubSpot-Request-Timestamp': String(NOW.getTime()),
    });
  });

  it('reports a refused reply as the result and runs no handler', async () => {
    const { handlers } = await harness([entry]);
    const answer = await send(handlers, 'POST', trigger('bad-reply'), { body: { payload: {} } });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      queued: false,
      result: {
        ok: false,
        error: {
          code: 'handler_error',
          message:
            "The webhook's reply was refused: status 302 is not allowed; reply with 200-299 or 400-499.",
        },
      },
      logs: [],
    });
  });

  it('refuses a form payload that is not an object of strings, bad headers and a bad content type', async () => {
    const { handlers } = await harness([entry]);
    const cases = [
      { payload: { command: 1 }, contentType: FORM },
      { payload: 'command=x', contentType: FORM },
      { payload: {}, headers: ['X-A'] },
      { payload: {}, headers: { 'Bad Name': 'x' } },
      { payload: {}, headers: { 'X-A': 1 } },
      { payload: {}, contentType: 5 },
    ];
    for (const body of cases) {
      const answer = await send(handlers, 'POST', trigger('slack'), { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe('invalid_input');
    }
  });
});
