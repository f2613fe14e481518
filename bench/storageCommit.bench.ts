import { createHostCapabilities, readStorage, writeStorage } from '@platform/host';
import pino from 'pino';
import { pgSchema, startTestHost } from '../packages/host/test/_host.js';
import { type Measured, measure, printTable } from './_run.js';

// What the storage version check (DESIGN.md section 7) costs per call: one read-modify-write
// saved by the host capabilities (`UPDATE ... WHERE version = <read version>` with a new version
// from the sequence, see store/storage.ts `applyStoragePlan`) against the unchecked write path the host had before (the same read, then the upsert
// in a transaction), both next to the actions route's time for the same read-modify-write action
// (auth, rate limit, isolated runtime, commit). Goal: the check adds under 5% to the route.

const SLUG = 'test-concurrency';
const KEY = 'sync_state/candidates';
const LIST = Array.from({ length: 20 }, (_, index) => `candidate-${index}`);
const GOAL = 0.05;
const ROUNDS = 6;
const PLAIN = 'read + unchecked save (the write path without versions)';
const CHECKED = 'read + checked save (createHostCapabilities commit)';

// The round whose mean is the median for this task (its other figures come with it).
function median(rounds: readonly Measured[][], name: string): Measured {
  const rows = rounds
    .map((round) => round.find((row) => row.name === name)!)
    .sort((a, b) => a.meanUs - b.meanUs);
  return rows[Math.floor(rows.length / 2)]!;
}

async function run(engine: string, databaseUrl: string | undefined): Promise<void> {
  const host = await startTestHost({
    logger: pino({ level: 'silent' }),
    projects: ['concurrency'],
    limits: { ratePerUser: 1e9, ratePerAccount: 1e9 },
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
  });
  try {
    const at = { slug: SLUG, accountId: host.accountId, scope: 'account' as const, userId: '' };
    await writeStorage(host.db, at, KEY, LIST);
    const { rows } = await host.db.query('SELECT source_id FROM integrations WHERE slug = $1', [SLUG]);
    const sourceId = rows[0]!.source_id as string;
    const path = `/api/integrations/${SLUG}/actions/remove-candidate?accountId=${host.accountId}`;
    // Removes an id that is not there: the list is read and written back the same size every time.
    const routeCall = async () => {
      const response = await host.call(path, { json: { id: 'absent' } });
      if (response.status !== 200) throw new Error(`the action answered ${response.status}`);
      await response.arrayBuffer();
    };
    await routeCall();
    const checked = async () => {
      const { capabilities, commit } = createHostCapabilities({
        db: host.db,
        slug: SLUG,
        accountId: host.accountId,
        sourceId,
        userId: undefined,
        egress: [],
        storageKeys: { account: [KEY], user: [] },
        secretBox: host.services.secretBox,
        fetch: host.services.fetch,
        log: () => {},
      });
      const list = (await capabilities.storage.get('account', KEY)) as string[];
      await capabilities.storage.set('account', KEY, list);
      await commit();
    };
    const unchecked = async () => {
      const list = (await readStorage(host.db, at, [KEY])).get(KEY);
      await host.db.transaction((tx) => writeStorage(tx, at, KEY, list));
    };
    const route = (
      await measure({ 'actions route, read-modify-write action, isolated runtime': routeCall }, 2000)
    )[0]!;
    // The two saves alternate over several rounds (a database's flushes drift over seconds); each
    // figure is the median of its rounds.
    const rounds: Measured[][] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const pair: Record<string, () => Promise<void>> = { [PLAIN]: unchecked, [CHECKED]: checked };
      const order = round % 2 === 0 ? [PLAIN, CHECKED] : [CHECKED, PLAIN];
      rounds.push(await measure(Object.fromEntries(order.map((name) => [name, pair[name]!])), 500));
    }
    const plain = median(rounds, PLAIN);
    const withCheck = median(rounds, CHECKED);
    printTable(
      `Storage version check, ${engine} (baseline: read + unchecked save)`,
      [route, plain, withCheck],
      PLAIN,
    );
    const cost = withCheck.meanUs - plain.meanUs;
    const share = cost / route.meanUs;
    console.log(
      `  check cost per call: ${cost.toFixed(1)} us = ${(share * 100).toFixed(2)}% of the route's ${route.meanUs.toFixed(0)} us per call (goal < ${GOAL * 100}%: ${share < GOAL ? 'met' : 'NOT met'})`,
    );
  } finally {
    await host.close();
  }
}

export async function benchStorageCommit(): Promise<void> {
  await run('PGlite', undefined);
  const pgUrl = process.env.PLATFORM_TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = await pgSchema(pgUrl, 'bench_storage');
    try {
      await run('PostgreSQL', schema.url);
    } finally {
      await schema.drop();
    }
  } else {
    console.log('  (PostgreSQL skipped: set PLATFORM_TEST_DATABASE_URL to include it)');
  }
}
