import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { sign } from '@octokit/webhooks-methods';
import { writeSecret } from '@platform/host';
import autocannon from 'autocannon';
import pino from 'pino';
import { pgSchema, startTestHost } from '../packages/host/test/_host.js';
import { cpuPerOperation, cpuSnapshot } from './_cpu.js';
import { bracketedBaseline } from './_run.js';

interface IngestResult {
  readonly name: string;
  readonly acceptedPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly refused: number;
  /** Handler runs per second when the worker works off what was accepted; undefined for the baseline. */
  readonly handledPerSecond?: number;
  readonly handled?: number;
  /** Where the CPU went per accepted delivery while under load (`_cpu.ts`). */
  readonly cpu: string;
}

const DURATION_S = 5;
/** The issue's goal for the PostgreSQL row: accepted/s at least this share of the bare server's. */
const POSTGRES_GOAL = 0.25;
const CONNECTIONS = 10;
const SECRET = 'bench-webhook-secret';
const BODY = JSON.stringify({ id: 'evt_bench', action: 'opened', repository: { name: 'platform' } });

/** Load before each measured run, not counted: the host's JIT, isolates and caches reach their steady state. */
const WARM_UP_S = 1;

function load(url: string, headers: Record<string, string>, duration = DURATION_S) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      { url, method: 'POST', connections: CONNECTIONS, duration, headers, body: BODY },
      (error: Error | null, result: autocannon.Result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** A bare server answering 202, open until `close`: measured before and after the targets. */
async function baseline() {
  const bare = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(202, { 'content-type': 'application/json' });
      response.end('{"ok":true,"data":{"deliveryId":"x"}}');
    });
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
  await load(url, {}, WARM_UP_S);
  return {
    async measure(when: string): Promise<IngestResult> {
      const before = cpuSnapshot();
      const result = await load(url, {});
      return {
        name: `bare node:http server answering 202, ${when} the targets`,
        acceptedPerSecond: result['2xx'] / DURATION_S,
        p50: result.latency.p50,
        p99: result.latency.p99,
        refused: result.non2xx,
        cpu: cpuPerOperation(before, cpuSnapshot(), result['2xx'], 'request'),
      };
    },
    close: () => new Promise((resolve) => bare.close(resolve)),
  };
}

/** Signed GitHub-style deliveries against the ingress route, then the worker runs every accepted one. */
async function ingest(name: string, databaseUrl: string | undefined): Promise<IngestResult> {
  const host = await startTestHost({
    logger: pino({ level: 'silent' }),
    projects: ['events'],
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
  });
  const { rows } = await host.db.query("SELECT source_id FROM integrations WHERE slug = 'test-events'");
  await writeSecret(host.db, host.services.secretBox, {
    scope: { slug: 'test-events', accountId: host.accountId, sourceId: rows[0]!.source_id as string },
    tier: 'account',
    name: 'GITHUB_WEBHOOK_SECRET',
    value: SECRET,
  });
  const server = serve({ fetch: host.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/integrations/test-events/webhooks/github-push?accountId=${host.accountId}`;
  const headers = { 'content-type': 'application/json', 'x-hub-signature-256': await sign(SECRET, BODY) };
  await load(url, headers, WARM_UP_S);
  const before = cpuSnapshot();
  const result = await load(url, headers);
  const cpu = cpuPerOperation(before, cpuSnapshot(), result['2xx'], 'accepted delivery');
  await new Promise((resolve) => server.close(resolve));

  const started = performance.now();
  const handled = await host.events.worker.drain();
  const seconds = (performance.now() - started) / 1000;
  (globalThis as { __testEvents?: unknown[] }).__testEvents = [];
  await host.close();
  return {
    name,
    acceptedPerSecond: result['2xx'] / DURATION_S,
    p50: result.latency.p50,
    p99: result.latency.p99,
    refused: result.non2xx,
    handled,
    handledPerSecond: handled / seconds,
    cpu,
  };
}

export async function benchWebhookIngest(): Promise<void> {
  const bare = await baseline();
  const results: IngestResult[] = [await bare.measure('before')];
  results.push(await ingest('webhook ingress, PGlite (HMAC check, schema, durable insert)', undefined));
  const pgUrl = process.env.PLATFORM_TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = await pgSchema(pgUrl, 'bench_webhooks');
    try {
      results.push(
        await ingest('webhook ingress, PostgreSQL (HMAC check, schema, durable insert)', schema.url),
      );
    } finally {
      await schema.drop();
    }
  }
  results.push(await bare.measure('after'));
  await bare.close();
  const base = bracketedBaseline(results[0]!.acceptedPerSecond, results.at(-1)!.acceptedPerSecond);
  console.log(
    `\nWebhook ingest under load (autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each after ${WARM_UP_S} s of warm-up, GitHub-style signed body), then one worker (16 at once: the default per-integration limit) runs every accepted delivery (the warm-up's too); ratios against the mean of the two bare runs`,
  );
  console.log(
    `  ${'target'.padEnd(64)} ${'accepted/s'.padStart(10)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'refused'.padStart(8)} ${'x bare'.padStart(8)} ${'handled/s'.padStart(10)}  goal`,
  );
  for (const row of results) {
    const handled =
      row.handledPerSecond === undefined ? '' : `${Math.round(row.handledPerSecond)} (${row.handled})`;
    const ratio = row.acceptedPerSecond / base.perSecond;
    // Issue 17: signed, durable ingress on PostgreSQL at a quarter of a bare server at least.
    const goal = row.name.includes('PostgreSQL')
      ? `>= ${POSTGRES_GOAL}x ${ratio >= POSTGRES_GOAL && row.refused === 0 ? 'met' : 'not met'}`
      : '';
    console.log(
      `  ${row.name.padEnd(64)} ${Math.round(row.acceptedPerSecond).toString().padStart(10)} ${`${row.p50} ms`.padStart(7)} ${`${row.p99} ms`.padStart(7)} ${String(row.refused).padStart(8)} ${ratio.toFixed(3).padStart(7)}x ${handled.padStart(10)}  ${goal}`,
    );
    console.log(`    ${row.cpu}`);
  }
  if (base.warning !== undefined) console.log(`  ${base.warning}`);
  if (!pgUrl) console.log('  (PostgreSQL row skipped: set PLATFORM_TEST_DATABASE_URL to include it)');
}
