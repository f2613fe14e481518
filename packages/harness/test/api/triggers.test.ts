import type { HarnessRegistryEntry } from '@platform/harness';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { harness, send } from './_helpers.js';
import { acmeDefinition } from './_integration.js';

const NOW = new Date('2030-01-02T03:04:05Z');
const entry: HarnessRegistryEntry = {
  slug: 'acme-notes',
  name: 'Acme Notes',
  description: 'Notes',
  widgets: [],
  definition: acmeDefinition(),
  triggerMocks: { secrets: { account: { ACME_WEBHOOK_SECRET: 'whsec_from_mocks' } } },
};
const webhook = (id: string) => `/api/integrations/acme-notes/triggers/webhooks/${id}`;
const schedule = (id: string) => `/api/integrations/acme-notes/triggers/schedules/${id}`;
const event = { type: 'note.created', note: { id: 'w1', title: 'From webhook' } };

describe('harness trigger: webhooks', () => {
  it('signs the payload with the declared scheme and the triggerMocks secret, verifies it, delivers it as a machine actor', async () => {
    const { handlers } = await harness([entry], { now: () => NOW });
    const answer = await send(handlers, 'POST', webhook('note-changed'), { body: { payload: event } });
    expect(answer.status).toBe(200);
    const { data } = answer.body;
    expect(data).toMatchObject({
      webhookId: 'note-changed',
      mode: 'fixtures',
      variant: 'default',
      result: { ok: true },
      signature: { verified: true, secret: { name: 'ACME_WEBHOOK_SECRET', source: 'triggerMocks' } },
      storage: {
        before: { account: {}, user: {} },
        after: { account: { 'cache/notes': [event.note] }, user: {} },
      },
    });
    expect(data.logs).toContainEqual({ level: 'info', message: 'note w1 arrived' });
    const header = data.signature.headers['Acme-Signature'];
    expect(header).toMatch(new RegExp(`^t=${NOW.getTime() / 1000},v1=[0-9a-f]{64}$`));
    // The vendor's own library accepts it as a Stripe-style signature (given the signing time).
    const stripe = new Stripe('sk_test_x');
    const verified = stripe.webhooks.constructEvent(
      JSON.stringify(event),
      header,
      'whsec_from_mocks',
      300,
      undefined,
      NOW.getTime() / 1000,
    );
    expect(verified).toEqual(event);
  });

  it('shares the variant state with actions', async () => {
    const { handlers } = await harness([entry]);
    await send(handlers, 'POST', webhook('note-changed'), { body: { payload: event } });
    const added = await send(handlers, 'POST', '/api/integrations/acme-notes/actions/add-note', {
      body: { title: 'after' },
    });
    expect(added.body.data.id).toBe('n2');
  });

  it("uses the body's variant over the header's", async () => {
    const { handlers } = await harness([entry]);
    await send(handlers, 'POST', webhook('note-changed'), { body: { payload: event, variant: 'error' } });
    const read = (variant: string) =>
      send(handlers, 'GET', '/api/integrations/acme-notes/storage?keys=cache/notes', {
        headers: { 'x-harness-variant': variant },
      });
    expect((await read('error')).body.data['cache/notes']).toEqual([event.note]);
    expect((await read('default')).body.data['cache/notes']).toBeNull();
    const bad = await send(handlers, 'POST', webhook('note-changed'), {
      body: { payload: event, variant: 'other' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('send one of default, empty, error');
  });

  it('signs with a generated secret when triggerMocks sets none, and says so', async () => {
    const { handlers } = await harness([{ ...entry, triggerMocks: {} }]);
    const answer = await send(handlers, 'POST', webhook('note-changed'), { body: { payload: event } });
    expect(answer.body.data.result).toEqual({ ok: true });
    expect(answer.body.data.signature.secret).toEqual({
      name: 'ACME_WEBHOOK_SECRET',
      source: 'generated',
      note: 'ACME_WEBHOOK_SECRET is not set in triggerMocks.secrets.account, so the harness signed with a secret it generated.',
    });
  });

  it('delivers an unsigned webhook without a signature part', async () => {
    const { handlers } = await harness([entry]);
    const answer = await send(handlers, 'POST', webhook('unsigned-ping'), { body: { payload: {} } });
    expect(answer.body.data.signature).toBeUndefined();
    expect(answer.body.data.logs).toEqual([{ level: 'info', message: 'ping' }]);
  });

  it('refuses a payload its payloadSchema rejects (400 with issues), an unknown webhook (404) and a bad body (400)', async () => {
    const { handlers } = await harness([entry]);
    const refused = await send(handlers, 'POST', webhook('note-changed'), {
      body: { payload: { type: 'note.deleted', note: { id: 1 } } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_payload');
    expect(refused.body.error.issues.length).toBeGreaterThan(0);
    const unknown = await send(handlers, 'POST', webhook('nope'), { body: { payload: {} } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual({
      code: 'webhook_not_found',
      message: '"acme-notes" declares no webhook "nope"; declared: note-changed, unsigned-ping.',
    });
    expect(
      (await send(handlers, 'POST', webhook('note-changed'), { body: {} })).body.error.message,
    ).toContain('"payload"');
    expect(
      (await send(handlers, 'POST', webhook('note-changed'), { body: { payload: {}, x: 1 } })).status,
    ).toBe(400);
  });
});

describe('harness trigger: schedules', () => {
  it('runs a schedule as a machine actor at a chosen virtual time', async () => {
    const { handlers } = await harness([entry], { now: () => NOW });
    const answer = await send(handlers, 'POST', schedule('nightly-sync'), {
      body: { at: '2031-05-06T03:00:00Z' },
    });
    expect(answer.body).toEqual({
      ok: true,
      data: {
        scheduleId: 'nightly-sync',
        cron: '0 3 * * *',
        at: '2031-05-06T03:00:00.000Z',
        mode: 'fixtures',
        variant: 'default',
        result: { ok: true },
        logs: [],
        storage: {
          before: { account: {}, user: {} },
          after: { account: { sync_state: { actor: 'machine', at: 'nightly' } }, user: {} },
        },
      },
    });
    const now = await send(handlers, 'POST', schedule('nightly-sync'), { body: {} });
    expect(now.body.data.at).toBe(NOW.toISOString());
  });

  it('refuses ctx.storage.user to the machine actor: the run fails with the reason', async () => {
    const { handlers } = await harness([entry]);
    const answer = await send(handlers, 'POST', schedule('touch-user'), { body: {} });
    expect(answer.status).toBe(200);
    expect(answer.body.data.result).toEqual({
      ok: false,
      error: {
        code: 'handler_error',
        message: expect.stringContaining(
          'MachineActorStorageError: ctx.storage.user is unavailable to machine actors',
        ),
      },
    });
  });

  it('refuses an unknown schedule (404) and a time that is not ISO 8601 (400)', async () => {
    const { handlers } = await harness([entry]);
    const unknown = await send(handlers, 'POST', schedule('nope'), { body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('schedule_not_found');
    for (const at of ['tomorrow', 5, '2030-13-45T00:00:00Z']) {
      const answer = await send(handlers, 'POST', schedule('nightly-sync'), { body: { at } });
      expect(answer.status, String(at)).toBe(400);
      expect(answer.body.error.message).toContain('ISO 8601');
    }
  });
});
