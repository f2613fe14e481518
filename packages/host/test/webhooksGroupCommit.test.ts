import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { sign as githubSign } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Queryable, sqlText } from '../src/db/Db.js';
import { createEnqueueBatcher } from '../src/events/enqueueBatcher.js';
import type { EnqueueJobInput } from '../src/events/jobs.js';
import { upsertActivation } from '../src/store/integrations.js';
import { writeSecret } from '../src/store/secrets.js';
import { startTestHost, type TestHost } from './_host.js';

// Webhook ingress commits deliveries in groups (src/events/enqueueBatcher.ts): a 202 only once its
// row is committed, a failed batch fails only its own requests, nothing is dropped at close. Its
// lookups go through the host cache; its body limit reads a Content-Length body on the fast path.
const SLUG = 'test-events';
const SECRET = 'gh-group-secret';
const INSERT_JOBS = /^\s*INSERT INTO jobs/;

describe('webhook ingress: group commit', () => {
  let host: TestHost;
  let query: Queryable['query'];
  // The statements that write jobs, as the host's database saw them; `failNext` makes the next n fail.
  let inserts: { sql: string; rows: number }[] = [];
  let failNext = 0;
  let secretReads = 0;

  const url = `/api/integrations/${SLUG}/webhooks/github-push`;
  const deliver = async (id: string, secret = SECRET) => {
    const body = JSON.stringify({ id, action: 'opened' });
    const response = await host.app.request(`${url}?accountId=${host.accountId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Hub-Signature-256': await githubSign(secret, body) },
      body,
    });
    const json = (await response.json()) as { data?: { deliveryId: string } };
    return { status: response.status, body, deliveryId: json.data?.deliveryId };
  };
  const jobRows = async () =>
    (await query('SELECT id, body, status FROM jobs WHERE integration_slug = $1', [SLUG])).rows;
  const job = (target: string, body?: string): EnqueueJobInput => ({
    kind: 'webhook',
    slug: SLUG,
    accountId: host.accountId,
    versionId: null,
    target,
    ...(body === undefined ? {} : { body }),
    request: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      contentType: 'application/json',
    },
    maxAttempts: 5,
    runAt: new Date(),
  });

  let sourceId: string;
  const setSecret = (value: string) =>
    writeSecret(host.db, host.services.secretBox, {
      scope: { slug: SLUG, accountId: host.accountId, sourceId },
      tier: 'account',
      name: 'GITHUB_WEBHOOK_SECRET',
      value,
    });

  beforeAll(async () => {
    host = await startTestHost({
      projects: ['events'],
      runtime: 'in-process',
      limits: { webhookBodyBytes: 64 * 1024 },
    });
    const { rows } = await host.db.query('SELECT source_id FROM integrations WHERE slug = $1', [SLUG]);
    sourceId = rows[0]!.source_id as string;
    await setSecret(SECRET);
    // The batcher writes through this same object: count (and fail) its statements here.
    query = host.db.query.bind(host.db);
    (host.db as { query: Queryable['query'] }).query = async (statement, params) => {
      const sql = sqlText(statement);
      if (/FROM secrets/.test(sql)) secretReads += 1;
      if (INSERT_JOBS.test(sql)) {
        // enqueueJobs sends its rows as one JSON array.
        const rows = (JSON.parse(params?.[0] as string) as unknown[]).length;
        inserts.push({ sql, rows });
        if (failNext > 0) {
          failNext -= 1;
          // No SQLSTATE: as a dropped connection, whether it committed is unknown, so no retry.
          throw new Error('connection terminated (injected)');
        }
      }
      return query(statement, params);
    };
  });
  afterAll(async () => {
    await host?.close();
  });
  beforeEach(async () => {
    inserts = [];
    failNext = 0;
    await query('DELETE FROM jobs');
  });

  it('N concurrent deliveries: N rows, each 202 answered with its own committed row', async () => {
    const n = 40;
    const results = await Promise.all(Array.from({ length: n }, (_, index) => deliver(`evt-${index}`)));
    expect(results.map((result) => result.status)).toEqual(Array(n).fill(202));
    const rows = await jobRows();
    expect(rows).toHaveLength(n);
    const byId = new Map(rows.map((row) => [row.id as string, row]));
    for (const result of results) {
      expect(byId.get(result.deliveryId!)).toMatchObject({ body: result.body, status: 'queued' });
    }
    // Every row went through a multi-row INSERT (how many per batch depends on timing).
    expect(inserts.reduce((sum, insert) => sum + insert.rows, 0)).toBe(n);
  });

  it('jobs enqueued in one turn of the event loop share one INSERT', async () => {
    const ids = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((target) => host.services.enqueueBatcher.enqueue(job(target, target))),
    );
    expect(inserts).toEqual([expect.objectContaining({ rows: 5 })]);
    expect((await jobRows()).map((row) => row.id).sort()).toEqual([...ids].sort());
  });

  it('spread: with nothing in flight a lone job is written at once; the jobs that come meanwhile go together', async () => {
    const batcher = createEnqueueBatcher(host.db, { spread: true });
    const first = batcher.enqueue(job('lone', 'lone'));
    // Written once this callback's microtasks have run, not at the end of the event loop's turn.
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(inserts).toEqual([expect.objectContaining({ rows: 1 })]);
    const rest = ['b', 'c', 'd'].map((target) => batcher.enqueue(job(target, target)));
    await Promise.all([first, ...rest]);
    expect(inserts.map((insert) => insert.rows)).toEqual([1, 3]);
    await batcher.close();
  });

  it("the host's batcher spreads on PostgreSQL only (PGlite's work is the event loop's own)", async () => {
    // Lone jobs one after another: each that waits for the end of the turn halves the load the
    // earlier tests left (at most 40 at once), so on PostgreSQL one leaves at once within six.
    let atOnce = 0;
    for (let index = 0; index < 8; index++) {
      const before = inserts.length;
      const stored = host.services.enqueueBatcher.enqueue(job(`lone-${index}`, 'lone'));
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      if (inserts.length > before) atOnce += 1;
      await stored;
      // The next one comes in a later turn (one coming as a batch ends goes with that batch's end).
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(atOnce > 0).toBe(host.db.engine === 'postgres');
  });

  it('a failing batch answers 5xx to all its requests and leaves no rows', async () => {
    failNext = Number.POSITIVE_INFINITY;
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => deliver(`bad-${index}`)));
    expect(results.map((result) => result.status)).toEqual(Array(8).fill(503));
    expect(results.every((result) => result.deliveryId === undefined)).toBe(true);
    expect(await jobRows()).toEqual([]);
  });

  it('a failed batch fails only the requests in it; the others are committed', async () => {
    failNext = 1;
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => deliver(`some-${index}`)));
    const accepted = results.filter((result) => result.status === 202);
    const refused = results.filter((result) => result.status !== 202);
    // The first batch (however many it held) failed, nothing else.
    expect(refused.length).toBe(inserts[0]!.rows);
    expect(refused.every((result) => result.status === 503)).toBe(true);
    expect(accepted.length).toBe(20 - refused.length);
    const rows = await jobRows();
    expect(rows.map((row) => row.id).sort()).toEqual(accepted.map((result) => result.deliveryId).sort());
    expect(rows.map((row) => row.body).sort()).toEqual(accepted.map((result) => result.body).sort());
  });

  it('a row the database refuses fails alone: the batch is written again row by row', async () => {
    const outcomes = await Promise.allSettled([
      host.services.enqueueBatcher.enqueue(job('ok-1', 'one')),
      // PostgreSQL text cannot hold U+0000: the multi-row INSERT fails with an SQLSTATE.
      host.services.enqueueBatcher.enqueue(job('nul', 'bad \u0000 body')),
      host.services.enqueueBatcher.enqueue(job('ok-2', 'two')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(inserts.map((insert) => insert.rows)).toEqual([3, 1, 1, 1]);
    expect((await jobRows()).map((row) => row.body).sort()).toEqual(['one', 'two']);
  });

  it('close() writes the waiting jobs and waits for the batch in flight; later jobs are refused', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const writing = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow: Queryable = {
      async query(sql, params) {
        if (INSERT_JOBS.test(sqlText(sql))) {
          started();
          await held;
        }
        return host.db.query(sql, params);
      },
    };
    const batcher = createEnqueueBatcher(slow, { maxInFlight: 1 });
    const first = batcher.enqueue(job('in-flight', 'first'));
    await writing;
    // The first batch is in flight; these wait for it.
    const waiting = [batcher.enqueue(job('waiting', 'second')), batcher.enqueue(job('waiting', 'third'))];
    let closed = false;
    const closing = batcher.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    await expect(batcher.enqueue(job('late', 'late'))).rejects.toThrow(/closing/);
    release();
    await closing;
    const ids = await Promise.all([first, ...waiting]);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect((await jobRows()).map((row) => row.body).sort()).toEqual(['first', 'second', 'third']);
  });

  it("the host's close() commits a job still waiting for its batch", async () => {
    const other = await startTestHost({ projects: [], runtime: 'in-process' });
    const pending = other.services.enqueueBatcher.enqueue({
      ...job('at-close', 'x'),
      accountId: other.accountId,
    });
    await other.close();
    await expect(pending).resolves.toEqual(expect.any(String));
  });

  it('a rotated signing secret is used at once; the replaced one stops verifying once the cache drops it', async () => {
    // Until a delivery is verified with the secret from the cache (fresh once the epoch was polled).
    for (let attempt = 0; ; attempt += 1) {
      await host.services.cache.poll();
      expect((await deliver(`warm-${attempt}`)).status).toBe(202);
      const reads = secretReads;
      expect((await deliver(`cached-${attempt}`)).status).toBe(202);
      if (secretReads === reads) break;
      if (attempt === 5) throw new Error('the signing secret was never served from the cache');
    }
    // The secret is cached; a delivery it refuses is checked again against the database.
    await setSecret('gh-rotated-secret');
    expect((await deliver('after-rotation', 'gh-rotated-secret')).status).toBe(202);
    // Until the cache drops the entry (within its maxAgeMs), the replaced secret may still verify.
    host.services.cache.invalidate();
    expect((await deliver('old-secret')).status).toBe(401);
    await setSecret(SECRET);
    expect((await deliver('restored')).status).toBe(202);
  });

  it('deactivation takes effect at once on this instance (the cached target is dropped)', async () => {
    expect((await deliver('while-active')).status).toBe(202);
    await host.db.query('DELETE FROM activations WHERE integration_slug = $1 AND account_id = $2', [
      SLUG,
      host.accountId,
    ]);
    try {
      const response = await deliver('after-deactivation');
      expect(response.status).toBe(404);
    } finally {
      await upsertActivation(host.db, {
        slug: SLUG,
        accountId: host.accountId,
        userId: host.userId,
        data: null,
      });
    }
    expect((await deliver('reactivated')).status).toBe(202);
  });

  it('through a node server: a Content-Length over the limit is 413 unread; within it, 202', async () => {
    const server = serve({ fetch: host.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${url}?accountId=${host.accountId}`;
      const post = async (body: string, headers: Record<string, string> = {}) =>
        fetch(base, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'X-Hub-Signature-256': await githubSign(SECRET, body),
            ...headers,
          },
          body,
        });
      const big = JSON.stringify({ id: 'big', pad: 'x'.repeat(64 * 1024) });
      const refused = await post(big);
      expect(refused.status).toBe(413);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
      // Chunked (no Content-Length): bodyLimit counts the bytes as they stream.
      const chunked = await fetch(base, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([big]).stream(),
        duplex: 'half',
      } as RequestInit);
      expect(chunked.status).toBe(413);
      const small = JSON.stringify({ id: 'small', action: 'opened' });
      const accepted = await post(small);
      expect(accepted.status).toBe(202);
      const { data } = (await accepted.json()) as { data: { deliveryId: string } };
      expect(await jobRows()).toEqual([expect.objectContaining({ id: data.deliveryId, body: small })]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
