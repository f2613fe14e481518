import { createIsolatedRuntime, type IsolatedRuntime } from '@platform/host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveVersion } from '../src/store/integrations.js';
import { writeSecret } from '../src/store/secrets.js';
import { startTestHost, type TestHost } from './_host.js';

// Partner code that misbehaves, run by the isolated runtime behind the real actions route.
const CPU_LIMIT_MS = 400;
const TIMEOUT_MS = 3000;
// Generous: a limit plus scheduling on a busy 2-core CI machine; what matters is that calls end.
const MARGIN_MS = 2500;

let host: TestHost;
let runtime: IsolatedRuntime;
const call = (slug: string, action: string, json: unknown = {}) =>
  host.call(`/api/integrations/${slug}/actions/${action}?accountId=${host.accountId}`, { json });

async function timed(slug: string, action: string, json: unknown = {}) {
  const started = Date.now();
  const response = await call(slug, action, json);
  return { status: response.status, body: (await response.json()) as any, ms: Date.now() - started };
}

beforeAll(async () => {
  runtime = createIsolatedRuntime({ runners: 2, cpuLimitMs: CPU_LIMIT_MS, memoryLimitMb: 64 });
  host = await startTestHost({
    runtime,
    projects: ['notes', 'hostile'],
    limits: { actionTimeoutMs: TIMEOUT_MS },
  });
});
afterAll(() => host.close());

describe('isolated runtime: resource limits', () => {
  it('runs partner code in isolates, with the web APIs and zod working inside', async () => {
    expect(runtime.isolated).toBe(true);
    const { status, body } = await timed('test-hostile', 'ok');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ fine: true, url: 'https://example.com/a?b=1' });
    expect(body.data.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  for (const action of ['sync-loop', 'loop-after-await', 'heap-bomb', 'buffer-bomb']) {
    it(`ends ${action} with handler_error within its limit, and the next call succeeds`, async () => {
      const other = call('test-notes', 'add-note', { title: `during ${action}` });
      const result = await timed('test-hostile', action);
      expect(result.status).toBe(500);
      expect(result.body).toEqual({ ok: false, error: { code: 'handler_error', message: 'Action failed.' } });
      expect(result.ms).toBeLessThan(CPU_LIMIT_MS + MARGIN_MS);
      expect((await other).status).toBe(200);
      const next = await timed('test-hostile', 'ok');
      expect(next.status).toBe(200);
    });
  }

  it('fails calls in flight on a runner that dies with handler_error, and replaces the runner', async () => {
    const slow = timed('test-hostile', 'slow', { ms: 2500 });
    await new Promise((resolve) => setTimeout(resolve, 800));
    const before = runtime.runnerPids();
    expect(before.length).toBeGreaterThan(0);
    for (const pid of before) process.kill(pid, 'SIGKILL');
    const result = await slow;
    expect(result.status).toBe(500);
    expect(result.body.error.code).toBe('handler_error');
    // Ended by the runner's death, not by the handler finishing or the time limit.
    expect(result.ms).toBeLessThan(2500);
    // The host notices each exit on its own schedule; calls after that go to new runners.
    while (runtime.runnerPids().some((pid) => before.includes(pid))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await timed('test-hostile', 'ok')).status).toBe(200);
    expect((await timed('test-notes', 'list-notes')).status).toBe(200);
    expect(runtime.runnerPids().length).toBeGreaterThan(0);
    expect(runtime.runnerPids().some((pid) => before.includes(pid))).toBe(false);
  });
});

describe('isolated runtime: escape suite', () => {
  it('blocks every way out; the host keeps serving', async () => {
    const notes = await liveVersion(host.db, 'test-notes');
    await writeSecret(host.db, host.services.secretBox, {
      scope: { slug: 'test-notes', accountId: host.accountId, sourceId: notes!.sourceId },
      tier: 'account',
      name: 'NOTES_ONLY_TOKEN',
      value: 'not-for-hostile',
    });
    const { status, body } = await timed('test-hostile', 'escape', {
      otherSecret: 'NOTES_ONLY_TOKEN',
      privateUrl: 'http://127.0.0.1:1/',
    });
    expect(status).toBe(200);
    const { probes, secret, stored } = body.data as {
      probes: Record<string, string>;
      secret: string | null;
      stored: unknown;
    };
    expect(stored).toEqual({ n: 1 });
    expect(secret).toBeNull();
    expect(Object.keys(probes).length).toBeGreaterThan(20);
    for (const [probe, outcome] of Object.entries(probes)) {
      if (probe === 'response body type') expect(outcome, probe).toBe('no response');
      else expect(outcome, probe).toMatch(/^(blocked|empty):/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await timed('test-notes', 'list-notes')).status).toBe(200);
  });
});
