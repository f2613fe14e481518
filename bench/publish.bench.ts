// The publish gate: upload -> verdict through the host (route, queue, gate job), split by check,
// against the same commands run directly in the same project in the same run (npm ci, the
// project's tsc, tsc under the host's rules, vitest). Goal: the gate adds at most 30%.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packProject } from '@platform/cli';
import { addSeat, createHost, createSource, createToken, createUser } from '@platform/host';
import pino from 'pino';
import {
  installEnv,
  npmInstall,
  packWorkspacePackages,
  registryStatus,
  scaffoldAgainstRegistry,
  startRegistry,
} from '../packages/cli/test/_e2e.js';
import { buildCli } from '../scripts/build-cli.js';

interface CheckTiming {
  readonly name: string;
  readonly status: string;
  readonly ms?: number;
}

function timed(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - started;
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}${result.stderr}`,
    );
  return ms;
}

export async function benchPublish(rounds = 2): Promise<void> {
  const npm = await registryStatus();
  if (!npm.reachable) {
    console.log(`\npublish gate: skipped (${npm.reason})`);
    return;
  }
  buildCli();
  const root = mkdtempSync(join(tmpdir(), 'platform-bench-publish-'));
  const registry = await startRegistry(join(root, 'registry'));
  try {
    packWorkspacePackages(join(root, 'registry'));
    const app = await scaffoldAgainstRegistry(root, registry.url);
    await npmInstall(app);
    const { archive } = await packProject(app);

    const host = await createHost({
      logger: pino({ level: 'silent' }),
      gate: {
        registryUrl: `${registry.url}/registry/`,
        npmRegistry: npm.registry,
      },
    });
    const gateRuns: { totalMs: number; checks: CheckTiming[] }[] = [];
    const directRuns: Record<string, number>[] = [];
    try {
      const user = await createUser(host.db, { email: 'bench@example.test', name: 'Bench' });
      const source = await createSource(host.db, { slug: 'bench', name: 'Bench', stage: 'development' });
      await addSeat(host.db, source.id, user.id, 'owner');
      const { token } = await createToken(host.db, { userId: user.id, kind: 'token' });
      for (let round = 0; round < rounds; round++) {
        // The gate: upload, then the queue runs the gate job to its verdict.
        const started = performance.now();
        const response = await host.app.request('/api/platform/sources/bench/versions', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
          body: new Uint8Array(archive),
        });
        if (response.status !== 202)
          throw new Error(`upload answered ${response.status}: ${await response.text()}`);
        const { data } = (await response.json()) as { data: { submission: { id: string } } };
        await host.events.worker.drain();
        const totalMs = performance.now() - started;
        const { rows } = await host.db.query('SELECT status, checks FROM submissions WHERE id = $1', [
          data.submission.id,
        ]);
        if (rows[0]?.status !== 'passed') {
          const jobs = await host.db.query(
            `SELECT status, attempts, last_error FROM jobs WHERE kind = 'gate'`,
          );
          throw new Error(
            `the gate did not pass: ${JSON.stringify(rows[0])}\njobs: ${JSON.stringify(jobs.rows)}`,
          );
        }
        gateRuns.push({ totalMs, checks: rows[0].checks as CheckTiming[] });

        // The same work by hand, in a fresh copy of the project.
        const copy = join(root, `direct-${round}`);
        cpSync(app, copy, { recursive: true, filter: (path) => !path.includes('node_modules') });
        const env = { ...installEnv(), PATH: process.env.PATH ?? '' };
        const npmCi = timed(
          'npm',
          ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
          copy,
          env,
        );
        const bin = (name: string) => join(copy, 'node_modules', '.bin', name);
        const tsc = timed(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], copy, env);
        writeFileSync(
          join(copy, 'tsconfig.host-rules.json'),
          JSON.stringify({
            extends: './tsconfig.json',
            compilerOptions: { strict: true, noUncheckedIndexedAccess: true },
          }),
        );
        const tscRules = timed(bin('tsc'), ['--noEmit', '-p', 'tsconfig.host-rules.json'], copy, env);
        const vitest = timed(bin('vitest'), ['run'], copy, env);
        directRuns.push({
          'npm ci --ignore-scripts': npmCi,
          tsc,
          'tsc (host rules)': tscRules,
          'vitest run': vitest,
        });
        rmSync(copy, { recursive: true, force: true });
      }
    } finally {
      await host.close();
    }

    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const checkMean = (name: string) =>
      mean(gateRuns.map((run) => run.checks.find((check) => check.name === name)?.ms ?? 0));
    const gateTotal = mean(gateRuns.map((run) => run.totalMs));
    const directTotal = mean(directRuns.map((run) => Object.values(run).reduce((a, b) => a + b, 0)));
    const line = (label: string, ms: number, note = '') =>
      console.log(`  ${label.padEnd(44)} ${`${(ms / 1000).toFixed(2)} s`.padStart(9)}  ${note}`);
    console.log(
      `\npublish gate: the scaffold of \`platform init\` (${(archive.length / 1024).toFixed(0)} KiB packed), ${rounds} rounds, means; node ${process.version}`,
    );
    console.log('  the gate, upload -> verdict through the host (PGlite, queue, isolated runtime):');
    for (const check of gateRuns[0]!.checks) line(`    ${check.name}`, checkMean(check.name));
    line('    total (upload -> verdict)', gateTotal);
    console.log('  the same commands run directly in a copy of the project (baseline):');
    for (const name of Object.keys(directRuns[0]!))
      line(`    ${name}`, mean(directRuns.map((run) => run[name]!)));
    line('    total', directTotal);
    const ratio = gateTotal / directTotal;
    console.log(
      `  gate / direct: ${ratio.toFixed(2)}x (goal <= 1.30x: the gate adds at most 30%) ${ratio <= 1.3 ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  git ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}`,
    );
  } finally {
    await registry.close();
    rmSync(root, { recursive: true, force: true });
  }
}
