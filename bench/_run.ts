import { Bench } from 'tinybench';

export interface Measured {
  readonly name: string;
  /** Mean time per call, microseconds. */
  readonly meanUs: number;
  readonly p99Us: number;
  readonly opsPerSecond: number;
}

/** Runs tasks in one Bench (same process, same warm-up) and returns their figures. */
export async function measure(tasks: Record<string, () => unknown>, time = 700): Promise<Measured[]> {
  const bench = new Bench({ time, warmup: true });
  for (const [name, fn] of Object.entries(tasks)) bench.add(name, fn);
  await bench.run();
  return bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== 'completed') throw new Error(`bench task "${task.name}" ended ${result.state}`);
    return {
      name: task.name,
      meanUs: result.latency.mean * 1000,
      p99Us: (result.latency.p99 ?? result.latency.mean) * 1000,
      opsPerSecond: result.throughput.mean,
    };
  });
}

export function printTable(title: string, rows: readonly Measured[], baseline: string): void {
  const base = rows.find((row) => row.name === baseline);
  if (base === undefined) throw new Error(`no baseline "${baseline}"`);
  console.log(`\n${title}`);
  console.log(
    `  ${'task'.padEnd(58)} ${'mean'.padStart(11)} ${'p99'.padStart(11)} ${'ops/s'.padStart(12)} ${'x baseline'.padStart(11)}`,
  );
  for (const row of rows) {
    console.log(
      `  ${row.name.padEnd(58)} ${`${row.meanUs.toFixed(2)} us`.padStart(11)} ${`${row.p99Us.toFixed(2)} us`.padStart(11)} ${Math.round(row.opsPerSecond).toLocaleString('en-US').padStart(12)} ${(row.meanUs / base.meanUs).toFixed(2).padStart(10)}x`,
    );
  }
}

/**
 * A baseline measured before and after the targets of a run: their mean, and a warning when they
 * differ by more than `tolerance` (the machine's speed changed during the run, so every ratio
 * against it is uncertain by about that much).
 */
export function bracketedBaseline(
  before: number,
  after: number,
  tolerance = 0.25,
): { readonly perSecond: number; readonly warning?: string } {
  const mean = (before + after) / 2;
  const drift = Math.abs(before - after) / Math.max(before, after, 1);
  return drift <= tolerance
    ? { perSecond: mean }
    : {
        perSecond: mean,
        warning: `warning: the bare baseline moved ${Math.round(drift * 100)}% between its two runs (${Math.round(before)} and ${Math.round(after)} req/s): this machine's speed changed during the run, so the ratios are uncertain by about as much; run it again on a quieter machine`,
      };
}
