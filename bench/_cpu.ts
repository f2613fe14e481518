import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time by the part of the system that spent it, read from `/proc` (Linux): this process (the
 * host under test and the load generator), its runner processes (children running `runner.mjs`),
 * PostgreSQL's processes, and the whole machine. Clock ticks (`getconf CLK_TCK`, 100 on Linux).
 * Only processes of PostgreSQL running on this machine count (a remote server's do not).
 */
export interface CpuSnapshot {
  /** Per process id: its part and its CPU so far. */
  readonly processes: ReadonlyMap<number, { readonly part: Part; readonly ticks: number }>;
  /** Busy ticks of every core (user, nice, system, irq, softirq, steal). */
  readonly machineBusy: number;
  readonly machineTotal: number;
}

type Part = 'bench' | 'runners' | 'postgres';

const TICK_US = 10_000;

/** Undefined where there is no `/proc` to read (not Linux): callers print that the split is skipped. */
export function cpuSnapshot(): CpuSnapshot | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const processes = new Map<number, { part: Part; ticks: number }>();
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // the process ended meanwhile
    }
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // Fields 4 (ppid), 14 (utime) and 15 (stime) of proc(5), counted from the state field (3).
    const ticks = Number(fields[11]) + Number(fields[12]);
    const part: Part | undefined =
      Number(pid) === process.pid
        ? 'bench'
        : comm === 'postgres'
          ? 'postgres'
          : Number(fields[1]) === process.pid && isRunner(pid)
            ? 'runners'
            : undefined;
    if (part !== undefined) processes.set(Number(pid), { part, ticks });
  }
  const [, ...cpu] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] =
    cpu.map(Number);
  const machineBusy = user + nice + system + irq + softirq + steal;
  return { processes, machineBusy, machineTotal: machineBusy + idle + iowait };
}

function isRunner(pid: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('runner.mjs');
  } catch {
    return false;
  }
}

/** The share of the machine's cores that were busy between two snapshots (0 to 1). */
export function machineBusyShare(before: CpuSnapshot, after: CpuSnapshot): number {
  return (after.machineBusy - before.machineBusy) / (after.machineTotal - before.machineTotal || 1);
}

/** CPU per operation between two snapshots, in microseconds, by the part of the system that spent it. */
export interface CpuSplit {
  readonly host: number;
  readonly runners: number;
  readonly postgres: number;
  readonly total: number;
}

/** Undefined where a snapshot is missing (no `/proc`) or no operation completed. */
export function cpuSplit(
  before: CpuSnapshot | undefined,
  after: CpuSnapshot | undefined,
  operations: number,
): CpuSplit | undefined {
  if (before === undefined || after === undefined || operations <= 0) return undefined;
  // Per process, from its own earlier reading (0 for one started meanwhile). A process that ended
  // meanwhile (a closed database connection) is missing from `after`: its last ticks are not counted.
  const spent: Record<Part, number> = { bench: 0, runners: 0, postgres: 0 };
  for (const [pid, { part, ticks }] of after.processes) {
    spent[part] += ticks - (before.processes.get(pid)?.ticks ?? 0);
  }
  const per = (ticks: number) => Math.round((ticks * TICK_US) / operations);
  const host = per(spent.bench);
  const runners = per(spent.runners);
  const postgres = per(spent.postgres);
  return { host, runners, postgres, total: host + runners + postgres };
}

/**
 * One line (not indented) splitting the CPU spent between two snapshots per operation (microseconds), and how
 * busy the machine was: where a request's cost goes, steadier from run to run than throughput on
 * a shared machine. A busy share near 100% means the figures above are CPU-bound.
 */
export function cpuPerOperation(
  before: CpuSnapshot | undefined,
  after: CpuSnapshot | undefined,
  operations: number,
  unit: string,
  thisProcess = 'host + load generator',
): string {
  if (before === undefined || after === undefined)
    return '(CPU split skipped: no /proc to read on this system)';
  const split = cpuSplit(before, after, operations);
  if (split === undefined) return `(CPU split skipped: no ${unit} completed)`;
  const busy = machineBusyShare(before, after);
  return `CPU per ${unit}: ${split.host} us this process (${thisProcess}), ${split.runners} us runners, ${split.postgres} us PostgreSQL = ${split.total} us; machine ${Math.round(busy * 100)}% busy`;
}
