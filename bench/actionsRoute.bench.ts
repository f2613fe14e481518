import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { pgSchema, startTestHost } from '../packages/host/test/_host.js';
import { CONNECTIONS, DURATION_S, type LoadResult, load, WARM_UP_S } from './_load.js';
import { bracketedBaseline } from './_run.js';

interface Target extends LoadResult {
  /** Issue 17's goal for this row, if it has one. */
  readonly goal?: { readonly ratio: number; readonly p99Ms?: number };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function hostTarget(databaseUrl: string | undefined) {
  const host = await startTestHost({
    logger: pino({ level: 'silent' }),
    limits: { ratePerUser: 1e9, ratePerAccount: 1e9 },
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
  });
  await host.call(`/api/integrations/test-notes/actions/add-note?accountId=${host.accountId}`, {
    json: { title: 'one' },
  });
  const server = serve({ fetch: host.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/integrations/test-notes/actions/list-notes?accountId=${host.accountId}`;
  const headers = { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' };
  await load('warm-up', url, { headers, body: '{}' }, WARM_UP_S);
  return {
    url,
    headers,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await host.close();
    },
  };
}

export async function benchActionsRoute(): Promise<void> {
  const body = JSON.stringify({ ok: true, data: [{ id: 'n1', title: 'one' }] });
  const bare = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(body);
    });
  });
  const bareUrl = await listen(bare);
  // The baseline runs before and after the targets (warmed up like them): their mean is what the
  // ratios divide by, so a machine that slows down or speeds up during the run shows instead of
  // skewing every ratio one way.
  await load('warm-up', bareUrl, { body: '{}' }, WARM_UP_S);
  const bareBefore = await load('bare node:http JSON server, before the targets', bareUrl, { body: '{}' });
  const targets: Target[] = [];

  const pglite = await hostTarget(undefined);
  targets.push({
    ...(await load('actions route, PGlite (auth, rate limit, storage read)', pglite.url, {
      headers: pglite.headers,
      body: '{}',
    })),
    goal: { ratio: 0.1 },
  });
  await pglite.close();

  const pgUrl = process.env.PLATFORM_TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = await pgSchema(pgUrl, 'bench');
    const postgres = await hostTarget(schema.url);
    targets.push({
      ...(await load('actions route, PostgreSQL (auth, rate limit, storage read)', postgres.url, {
        headers: postgres.headers,
        body: '{}',
      })),
      goal: { ratio: 0.15, p99Ms: 20 },
    });
    await postgres.close();
    await schema.drop();
  }
  const bareAfter = await load('bare node:http JSON server, after the targets', bareUrl, { body: '{}' });
  await new Promise((resolve) => bare.close(resolve));

  const base = bracketedBaseline(bareBefore.requestsPerSecond, bareAfter.requestsPerSecond);
  console.log(
    `\nActions route under load (autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each after ${WARM_UP_S} s of warm-up, load generator on the same 2 cores; ratios against the mean of the two bare runs)`,
  );
  console.log(
    `  ${'target'.padEnd(58)} ${'req/s'.padStart(9)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'non-2xx'.padStart(8)} ${'x bare req/s'.padStart(13)}  ${'goal (issue 17)'.padEnd(22)} met`,
  );
  for (const row of [bareBefore, ...targets, bareAfter] as Target[]) {
    const ratio = row.requestsPerSecond / base.perSecond;
    const goal =
      row.goal === undefined
        ? ''
        : `>= ${row.goal.ratio.toFixed(2)}x${row.goal.p99Ms === undefined ? '' : `, p99 <= ${row.goal.p99Ms} ms`}`;
    const met =
      row.goal === undefined
        ? ''
        : ratio >= row.goal.ratio &&
            (row.goal.p99Ms === undefined || row.p99 <= row.goal.p99Ms) &&
            row.non2xx === 0
          ? 'met'
          : 'not met';
    console.log(
      `  ${row.name.padEnd(58)} ${Math.round(row.requestsPerSecond).toString().padStart(9)} ${`${row.p50} ms`.padStart(7)} ${`${row.p99} ms`.padStart(7)} ${String(row.non2xx).padStart(8)} ${ratio.toFixed(3).padStart(12)}x  ${goal.padEnd(22)} ${met}`,
    );
    console.log(`    ${row.cpu}`);
  }
  if (base.warning !== undefined) console.log(`  ${base.warning}`);
  if (!pgUrl) console.log('  (PostgreSQL row skipped: set PLATFORM_TEST_DATABASE_URL to include it)');
}
