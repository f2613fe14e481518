import { buildBundle, createIsolatedRuntime, type IsolatedRuntime } from '@platform/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, startTestHost } from './_host.js';

// Webhook ingress checks payloads through the isolated runtime, batched by version: the checks
// that arrive together enter the version's isolate once, and each gets its own verdict.
const CPU_LIMIT_MS = 300;
// Far above what a CPU-limited check may take on a loaded 2-core machine: a batch that ends was
// ended by its CPU limit, not by this clock.
const TIMEOUT_MS = 20_000;

let runtime: IsolatedRuntime;
let bundle: string;

const versionOf = (id: string) => ({ id, loadBundle: async () => bundle });
const check = (versionId: string, webhookId: string, body: unknown, contentType = 'application/json') =>
  runtime.parseWebhookPayload({
    version: versionOf(versionId),
    webhookId,
    rawBody: typeof body === 'string' ? body : JSON.stringify(body),
    contentType,
    timeoutMs: TIMEOUT_MS,
  });

async function callsEntered(): Promise<number> {
  const stats = await runtime.stats();
  return stats.reduce((sum, runner) => sum + runner.callsOnThread + runner.callsOnPool, 0);
}

beforeAll(async () => {
  bundle = await buildBundle(`${FIXTURES}payload-checks/integration.ts`);
  // The counts below are entries into the isolate: a 100 ms thread slice (10 ms by default) keeps a
  // loaded machine from stopping an entry there and rerunning it on the pool, which enters twice (a
  // CI run saw a 1 MiB body's check entered three times for two).
  runtime = createIsolatedRuntime({ runners: 1, cpuLimitMs: CPU_LIMIT_MS, threadSliceMs: 100 });
});
afterAll(() => runtime.close());

describe('isolated runtime: webhook payload checks', () => {
  it('checks the deliveries that arrive together in one call into the isolate, a verdict each, in order', async () => {
    // The isolate exists before counting: loading it is not what is measured.
    expect(await check('v1', 'order-created', { id: 'o-0', total: 1 })).toEqual({ ok: true });
    const before = await callsEntered();
    const settled = await Promise.allSettled([
      check('v1', 'order-created', { id: 'o-1', total: 10 }),
      check('v1', 'order-created', { id: 'o-2', total: 'ten' }),
      check('v1', 'fragile', { id: 'f-1', boom: true }),
      check('v1', 'no-such-hook', { id: 'x' }),
      check('v1', 'order-created', 'id=o-3&total=3', 'application/x-www-form-urlencoded'),
      check('v1', 'order-created', '{not json'),
      check('v1', 'fragile', { id: 'f-2' }),
    ]);
    expect(await callsEntered()).toBe(before + 1);
    const [valid, wrongType, threw, unknown, form, notJson, fine] = settled;
    // The verdict only: ingress keeps the raw body, so no parsed payload comes back.
    expect(valid).toEqual({ status: 'fulfilled', value: { ok: true } });
    expect(wrongType).toMatchObject({
      status: 'fulfilled',
      value: { ok: false, error: { code: 'invalid_payload', issues: [{ path: ['total'] }] } },
    });
    // A schema that throws fails its own check alone.
    expect(threw).toMatchObject({ status: 'rejected', reason: { message: 'the schema blew up' } });
    expect(unknown).toMatchObject({
      status: 'fulfilled',
      value: { ok: false, error: { code: 'webhook_not_found' } },
    });
    // Form-encoded values are strings: `total` is refused as the schema says.
    expect(form).toMatchObject({
      status: 'fulfilled',
      value: { ok: false, error: { code: 'invalid_payload' } },
    });
    expect(notJson).toMatchObject({
      status: 'fulfilled',
      value: { ok: false, error: { code: 'invalid_payload' } },
    });
    expect(fine).toEqual({ status: 'fulfilled', value: { ok: true } });
  });

  it('fails the batch of a check that cannot finish, and holds up no other version', async () => {
    expect(await check('v2', 'endless', { id: 'warm' })).toEqual({ ok: true });
    const endless = check('v2', 'endless', { id: 'e-1', spin: true });
    const sameBatch = check('v2', 'order-created', { id: 'o-4', total: 4 });
    let spinning = true;
    endless
      .catch(() => {})
      .finally(() => {
        spinning = false;
      });
    // Another version answers while v2's batch spins: its checks go in their own batch.
    expect(await check('v3', 'order-created', { id: 'o-5', total: 5 })).toEqual({ ok: true });
    expect(spinning).toBe(true);
    await expect(endless).rejects.toThrow();
    await expect(sameBatch).rejects.toThrow();
    // The version's next check gets a fresh isolate and its own verdict.
    expect(await check('v2', 'order-created', { id: 'o-6', total: 6 })).toEqual({ ok: true });
  });

  it('sends a body too large to share a batch on its own', async () => {
    const before = await callsEntered();
    const large = { id: 'big', total: 1, pad: 'x'.repeat(1024 * 1024) };
    const verdicts = await Promise.all([
      check('v1', 'order-created', large),
      check('v1', 'order-created', { id: 'small', total: 2 }),
    ]);
    expect(verdicts).toEqual([{ ok: true }, { ok: true }]);
    expect(await callsEntered()).toBe(before + 2);
  });
});

describe('webhook ingress: a payloadSchema that fails', () => {
  it('answers handler_error (500) and stores nothing; the next delivery is accepted', async () => {
    const host = await startTestHost({ projects: ['payload-checks'] });
    try {
      const deliver = (body: unknown) =>
        host.call(`/api/integrations/test-payload-checks/webhooks/fragile?accountId=${host.accountId}`, {
          method: 'POST',
          json: body,
        });
      const refused = await deliver({ id: 'f-1', boom: true });
      expect(refused.status).toBe(500);
      expect(await refused.json()).toMatchObject({ ok: false, error: { code: 'handler_error' } });
      const stored = await host.db.query("SELECT count(*)::int AS n FROM jobs WHERE kind = 'webhook'");
      expect(stored.rows[0]!.n).toBe(0);
      const accepted = await deliver({ id: 'f-2' });
      expect(accepted.status).toBe(202);
    } finally {
      await host.close();
    }
  });
});

describe('webhook ingress: a body that fits the declared payload shape', () => {
  it("is accepted without entering the isolate; a body that does not fit gets the schema's own issues", async () => {
    const host = await startTestHost({ projects: ['payload-checks'] });
    try {
      const isolated = host.services.runtime as IsolatedRuntime;
      const entered = async () =>
        (await isolated.stats()).reduce((sum, runner) => sum + runner.callsOnThread + runner.callsOnPool, 0);
      const deliver = (body: unknown, contentType = 'application/json') =>
        host.call(
          `/api/integrations/test-payload-checks/webhooks/order-created?accountId=${host.accountId}`,
          {
            method: 'POST',
            headers: { 'content-type': contentType },
            body: typeof body === 'string' ? body : JSON.stringify(body),
          },
        );
      // The version's isolate exists before counting (a body that does not fit loads it).
      expect((await deliver({ id: 'o-0', total: 'zero' })).status).toBe(400);
      const before = await entered();
      const accepted = await Promise.all([
        deliver({ id: 'o-1', total: 1 }),
        deliver({ id: 'o-2', total: 2.5, extra: [1] }),
      ]);
      expect(accepted.map((response) => response.status)).toEqual([202, 202]);
      expect(await entered()).toBe(before);

      const refused = await deliver({ id: 'o-3', total: 'three' });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        ok: false,
        error: { code: 'invalid_payload', issues: [{ path: ['total'] }] },
      });
      // Form-encoded bodies always go to the schema (its values are strings: refused here).
      expect((await deliver('id=o-4&total=4', 'application/x-www-form-urlencoded')).status).toBe(400);
      expect(await entered()).toBe(before + 2);
      // A body over 64 KiB is parsed and checked in the isolate, off the host's event loop.
      const large = await deliver({ id: 'o-5', total: 5, pad: 'x'.repeat(64 * 1024) });
      expect(large.status).toBe(202);
      expect(await entered()).toBe(before + 3);
      const stored = await host.db.query("SELECT body FROM jobs WHERE kind = 'webhook' ORDER BY body");
      expect(stored.rows.map((row) => JSON.parse(row.body as string).id)).toEqual(['o-1', 'o-2', 'o-5']);
    } finally {
      await host.close();
    }
  });
});
