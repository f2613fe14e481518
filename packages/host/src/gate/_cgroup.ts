import { existsSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What one gate run may use, all its processes together. */
export interface RunLimits {
  readonly memoryBytes: number;
  /** Processes and threads (a Node process counts about a dozen). */
  readonly processes: number;
  /** CPU time per wall-clock second (1.5: one and a half cores). */
  readonly cpus: number;
}

/** Which limits a run reached since the last look. */
export interface LimitsHit {
  readonly memory: boolean;
  readonly processes: boolean;
}

/** A cgroup holding every process of one gate run. */
export interface RunCgroup {
  /** The `cgroup.procs` files a process writes its pid into to join (one per v1 controller). */
  readonly procsFiles: readonly string[];
  readonly note: string;
  /** The limits reached since the previous call. */
  hit(): Promise<LimitsHit>;
  /** Kills everything still in the cgroup and removes it. */
  remove(): Promise<void>;
}

const ROOT = '/sys/fs/cgroup';
const V1 = ['memory', 'pids', 'cpu'] as const;

/** Why no cgroup can be made here, or undefined when one can (v2 where it is mounted at the root, else v1). */
export function cgroupUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'the host does not run as root';
  if (existsSync(join(ROOT, 'cgroup.controllers'))) return undefined;
  const missing = V1.filter((name) => !existsSync(join(ROOT, name, 'cgroup.procs')));
  return missing.length === 0
    ? undefined
    : `no cgroup v2 at ${ROOT} and no v1 ${missing.join(', ')} controller`;
}

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** A new cgroup `platform-gate/<name>` with `limits`; throws when the kernel refuses. */
export async function createCgroup(name: string, limits: RunLimits): Promise<RunCgroup> {
  const note = `limits: memory ${mib(limits.memoryBytes)}, ${limits.processes} processes, ${limits.cpus} CPUs`;
  return existsSync(join(ROOT, 'cgroup.controllers'))
    ? createV2(name, limits, note)
    : createV1(name, limits, note);
}

async function createV1(name: string, limits: RunLimits, note: string): Promise<RunCgroup> {
  const dirs = Object.fromEntries(
    V1.map((ctrl) => [ctrl, join(ROOT, ctrl, 'platform-gate', name)]),
  ) as Record<(typeof V1)[number], string>;
  for (const dir of Object.values(dirs)) await mkdir(dir, { recursive: true });
  const group: RunCgroup = {
    procsFiles: Object.values(dirs).map((dir) => join(dir, 'cgroup.procs')),
    note: `${note} (cgroup v1)`,
    async hit() {
      const oom = /oom_kill (\d+)/.exec(await read(join(dirs.memory, 'memory.oom_control')))?.[1];
      const failcnt = Number(await read(join(dirs.memory, 'memory.failcnt')));
      const maxed = Number(/max (\d+)/.exec(await read(join(dirs.pids, 'pids.events')))?.[1] ?? 0);
      const memory = Number(oom ?? 0) > seen.oom || (oom === undefined && failcnt > seen.failcnt);
      const processes = maxed > seen.pids;
      seen = { oom: Number(oom ?? 0), failcnt, pids: maxed };
      return { memory, processes };
    },
    async remove() {
      await killAll(join(dirs.pids, 'cgroup.procs'));
      for (const dir of Object.values(dirs)) await rmdir(dir).catch(() => {});
    },
  };
  let seen = { oom: 0, failcnt: 0, pids: 0 };
  try {
    await writeFile(join(dirs.memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
    // With swap accounting, swap counts too (else a run could swap past the limit).
    if (existsSync(join(dirs.memory, 'memory.memsw.limit_in_bytes'))) {
      await writeFile(join(dirs.memory, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
    }
    await writeFile(join(dirs.pids, 'pids.max'), String(limits.processes));
    await writeFile(join(dirs.cpu, 'cpu.cfs_period_us'), '100000');
    await writeFile(join(dirs.cpu, 'cpu.cfs_quota_us'), String(Math.round(limits.cpus * 100_000)));
  } catch (error) {
    await group.remove();
    throw error;
  }
  return group;
}

async function createV2(name: string, limits: RunLimits, note: string): Promise<RunCgroup> {
  const parent = join(ROOT, 'platform-gate');
  await mkdir(parent, { recursive: true });
  await writeFile(join(ROOT, 'cgroup.subtree_control'), '+memory +pids +cpu').catch(() => {});
  await writeFile(join(parent, 'cgroup.subtree_control'), '+memory +pids +cpu');
  const dir = join(parent, name);
  await mkdir(dir);
  let seen = { oom: 0, pids: 0 };
  const group: RunCgroup = {
    procsFiles: [join(dir, 'cgroup.procs')],
    note: `${note} (cgroup v2)`,
    async hit() {
      const oom = Number(/oom_kill (\d+)/.exec(await read(join(dir, 'memory.events')))?.[1] ?? 0);
      const pids = Number(/max (\d+)/.exec(await read(join(dir, 'pids.events')))?.[1] ?? 0);
      const result = { memory: oom > seen.oom, processes: pids > seen.pids };
      seen = { oom, pids };
      return result;
    },
    async remove() {
      await writeFile(join(dir, 'cgroup.kill'), '1').catch(() => killAll(join(dir, 'cgroup.procs')));
      await killAll(join(dir, 'cgroup.procs'));
      await rmdir(dir).catch(() => {});
    },
  };
  try {
    await writeFile(join(dir, 'memory.max'), String(limits.memoryBytes));
    await writeFile(join(dir, 'memory.swap.max'), '0').catch(() => {});
    await writeFile(join(dir, 'pids.max'), String(limits.processes));
    await writeFile(join(dir, 'cpu.max'), `${Math.round(limits.cpus * 100_000)} 100000`);
  } catch (error) {
    await group.remove();
    throw error;
  }
  return group;
}

const read = (file: string) => readFile(file, 'utf8').catch(() => '');

// SIGKILL to every process listed, until none is left (a process may fork while the list is read).
async function killAll(procsFile: string): Promise<void> {
  for (let round = 0; round < 100; round++) {
    const pids = (await read(procsFile)).split('\n').filter((line) => line !== '');
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
