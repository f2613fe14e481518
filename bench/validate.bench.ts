import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli } from '../scripts/build-cli.js';

const root = join(import.meta.dirname, '..');
const cli = join(root, 'packages', 'cli', 'dist', 'bin.js');
const example = join(root, 'packages', 'cli', 'test', 'fixtures', 'example');

interface Timing {
  readonly name: string;
  readonly meanMs: number;
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
}

// Wall time of whole processes, cold start included: each run is a fresh `node`.
function time(name: string, args: readonly string[], cwd: string, runs: number): Timing {
  const samples: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const start = performance.now();
    const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const elapsed = performance.now() - start;
    if (result.status !== 0)
      throw new Error(`${name} exited ${result.status}:\n${result.stdout}${result.stderr}`);
    if (i > 0) samples.push(elapsed); // the first run warms the file system cache
  }
  samples.sort((a, b) => a - b);
  return {
    name,
    meanMs: samples.reduce((sum, value) => sum + value, 0) / samples.length,
    medianMs: samples[Math.floor(samples.length / 2)]!,
    minMs: samples[0]!,
    maxMs: samples[samples.length - 1]!,
  };
}

// The example project's acme-notes integration (widgets, actions, OAuth, webhooks, schedules,
// storage, tools) copied ten times under distinct slugs, widget ids and so tool names.
function tenIntegrationProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'platform-bench-10-'));
  cpSync(example, dir, { recursive: true, filter: (source) => !source.includes(`${join('src', 'acme-')}`) });
  const integrations = Array.from({ length: 10 }, (_, i) => `team-${i + 1}-notes`);
  for (const slug of integrations) {
    cpSync(join(example, 'src', 'acme-notes'), join(dir, 'src', slug), { recursive: true });
    const entry = join(dir, 'src', slug, 'integration.ts');
    writeFileSync(entry, readFileSync(entry, 'utf8').replaceAll('acme-notes', slug));
  }
  writeFileSync(
    join(dir, 'platform.json'),
    JSON.stringify({
      integrations: integrations.map((slug) => ({ slug, entry: `src/${slug}/integration.ts` })),
      docs: ['docs/setup.md'],
    }),
  );
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

export async function benchValidate(runs = 10): Promise<void> {
  buildCli();
  const ten = tenIntegrationProject();
  try {
    const rows = [
      time('node -e "" (baseline: Node cold start)', ['-e', ''], root, runs),
      time('platform --version (CLI start)', [cli, '--version'], root, runs),
      time('platform validate: example project (2 integrations)', [cli, 'validate', '--json'], example, runs),
      time('platform validate: 10 integrations', [cli, 'validate', '--json'], ten, runs),
    ];
    const base = rows[0]!;
    console.log(
      `\nplatform validate, wall time of a cold process (${runs} runs each, after one warm-up; baseline: node -e "")`,
    );
    console.log(
      `  ${'task'.padEnd(56)} ${'mean'.padStart(9)} ${'median'.padStart(9)} ${'min'.padStart(9)} ${'max'.padStart(9)} ${'x baseline'.padStart(11)}`,
    );
    for (const row of rows) {
      const ms = (value: number) => `${value.toFixed(0)} ms`.padStart(9);
      console.log(
        `  ${row.name.padEnd(56)} ${ms(row.meanMs)} ${ms(row.medianMs)} ${ms(row.minMs)} ${ms(row.maxMs)} ${(row.meanMs / base.meanMs).toFixed(2).padStart(10)}x`,
      );
    }
    const [, , two, tenRow] = rows;
    const perIntegration = (tenRow!.meanMs - two!.meanMs) / 8;
    const ratio = two!.meanMs / base.meanMs;
    // The budget: validate on the example project within 6x a bare Node start (Node, the CLI,
    // esbuild's service, zod and the project's packages all start cold), and each further
    // integration within 50 ms.
    const verdict = ratio <= 6 && perIntegration <= 50 ? 'within budget' : 'OVER BUDGET';
    console.log(
      `  per extra integration (10 vs 2): ${perIntegration.toFixed(1)} ms; example project ${ratio.toFixed(2)}x baseline; budget 6x and 50 ms: ${verdict}`,
    );
  } finally {
    rmSync(ten, { recursive: true, force: true });
  }
}
