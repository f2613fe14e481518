import { execFile, spawn } from 'node:child_process';
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import {
  cgroupUnavailable,
  createCgroup,
  type LimitsHit,
  type RunCgroup,
  type RunLimits,
} from './_cgroup.js';
import { isolatedCommand, isolationUnavailable } from './_isolate.js';
import { fdReporterSource, hostToolchain } from './_toolchain.js';

/** How partner code that runs in the gate (tsc, vitest and the tests) is kept off the network. */
export interface Sandbox {
  readonly kind: 'isolated' | 'unshare' | 'preload';
  /** One line for the check log: which way, and why (and as which user). */
  readonly note: string;
  /** The host's own files for the run (preload, vitest reporter): root-owned, outside what partner code can write. */
  readonly hostDir: string;
  /** The vitest reporter in `hostDir` that writes the report onto fd 3. */
  readonly reporter: string;
  wrap(
    command: string,
    args: readonly string[],
    env: Readonly<Record<string, string>>,
  ): { command: string; args: string[]; env: Record<string, string>; uid?: number; gid?: number };
  /** The run's limits reached since the last call (none where there is no cgroup). */
  hit?(): Promise<LimitsHit>;
  /** Kills whatever of the run is left and removes its cgroup. */
  close?(): Promise<void>;
}

/** The limits of one run's sandbox: the cgroup's, and the size of its private /tmp and /dev/shm. */
export type SandboxLimits = RunLimits & { readonly tmpBytes: number };

/**
 * Who partner code runs as in the gate. A host running as root hands the work folder to `nobody`
 * (65534) and runs tsc and the tests as that user, so they cannot read the host's files (its data
 * folder, secret key, home); a host running as another user cannot switch users, and says so.
 */
export const UNPRIVILEGED = { uid: 65534, gid: 65534, name: 'nobody' } as const;

const execFileAsync = promisify(execFile);

/** The folders partner code may write: the project, its home and its temp folder. */
export const PARTNER_DIRS = ['project', 'home', 'tmp'] as const;

/** `<workDir>/host`: the host's files for the run, never handed to partner code. */
export const hostDirOf = (workDir: string) => join(workDir, 'host');

/**
 * The user partner code runs as, after handing it the project, home and tmp folders (root only).
 * `workDir` itself and `<workDir>/host` stay the host's (mode 755), so partner code can neither
 * replace a file the host wrote nor plant one where the host will write.
 */
async function partnerUser(workDir: string): Promise<{ uid: number; gid: number } | undefined> {
  for (const dir of PARTNER_DIRS) await mkdir(join(workDir, dir), { recursive: true });
  if (process.getuid?.() !== 0) return undefined;
  await checkTraversable(workDir);
  await chmod(workDir, 0o755);
  await execFileAsync('chown', [
    '-R',
    `${UNPRIVILEGED.uid}:${UNPRIVILEGED.gid}`,
    ...PARTNER_DIRS.map((dir) => join(workDir, dir)),
  ]);
  return { uid: UNPRIVILEGED.uid, gid: UNPRIVILEGED.gid };
}

/** `<workDir>/host` with the vitest reporter, written before any partner code runs. */
async function hostFiles(workDir: string): Promise<{ hostDir: string; reporter: string }> {
  const hostDir = hostDirOf(workDir);
  await mkdir(hostDir, { recursive: true, mode: 0o755 });
  const reporter = join(hostDir, 'report-to-fd.mjs');
  await writeFile(reporter, await fdReporterSource(), { mode: 0o644 });
  return { hostDir, reporter };
}

/** Every folder above `workDir` must let others through, or `nobody` cannot reach its own work folder. */
async function checkTraversable(workDir: string): Promise<void> {
  for (let dir = dirname(workDir); ; dir = dirname(dir)) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) {
      throw new Error(
        `the gate's work folder ${workDir} is out of reach of ${UNPRIVILEGED.name}: ${dir} is mode ${(mode & 0o777).toString(8)}; set the gate's scratch folder (gate.scratchDir) under the system temp folder, or let others through its parents (chmod o+x)`,
      );
    }
    if (dir === dirname(dir)) return;
  }
}

const userNote = (user: { uid: number } | undefined) =>
  user === undefined
    ? `user: the host's own (uid ${process.getuid?.() ?? '?'}): the host does not run as root, so partner code here can read what the host's user can; run the host as root (the gate then drops to ${UNPRIVILEGED.name}) or in a container`
    : `user: ${UNPRIVILEGED.name} (uid ${user.uid}), owner of the work folder only`;

let probe: Promise<string | undefined> | undefined;

/** Why `unshare -rn` cannot be used here, or undefined when it works (tried once per process). */
export function unshareUnavailable(): Promise<string | undefined> {
  probe ??= new Promise((resolve) => {
    const child = spawn('unshare', ['-rn', 'true'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve(`unshare cannot be started (${error.message})`);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? undefined : `unshare -rn failed (${stderr.trim() || `exit ${code}`})`);
    });
  });
  return probe;
}

/**
 * `unshare -rn` when it works: a new user and network namespace whose only interface is its own
 * loopback, so nothing on the host (its 127.0.0.1 included) or beyond is reachable. Otherwise a
 * preload (written into `workDir`) that makes net, tls, dns, http(s), dgram and fetch throw in every
 * Node process of the run: weaker (native code or a worker thread gets around it), and the log says so.
 */
export async function networkSandbox(workDir: string, limits?: SandboxLimits): Promise<Sandbox> {
  if (limits !== undefined && (await isolationUnavailable()) === undefined) {
    return isolatedSandbox(workDir, limits);
  }
  const why = await unshareUnavailable();
  const sandbox = why === undefined ? await unshareSandbox(workDir) : await preloadSandbox(workDir, why);
  const user = await partnerUser(workDir);
  return {
    ...sandbox,
    note: `${sandbox.note}; ${userNote(user)}`,
    wrap: (command, args, env) => ({ ...sandbox.wrap(command, args, env), ...(user ?? {}) }),
  };
}

/**
 * Root with unshare and setpriv: each command in new mount, pid, network and IPC namespaces, as
 * nobody, with a private /run, /tmp and /dev/shm, in the run's cgroup (where the machine has one).
 */
async function isolatedSandbox(workDir: string, limits: SandboxLimits): Promise<Sandbox> {
  const files = await hostFiles(workDir);
  const user = (await partnerUser(workDir))!;
  const tools = await hostToolchain();
  const noCgroup = cgroupUnavailable();
  let cgroup: RunCgroup | undefined;
  let cgroupNote = `limits: none (${noCgroup ?? ''})`;
  if (noCgroup === undefined) {
    try {
      cgroup = await createCgroup(workDir.split('/').pop()!, limits);
      cgroupNote = cgroup.note;
    } catch (error) {
      cgroupNote = `limits: none (the cgroup could not be made: ${(error as Error).message})`;
    }
  }
  return {
    ...files,
    kind: 'isolated',
    note: `network: none; mount, pid and IPC namespaces of its own with a private /tmp, /dev/shm and /run (no host sockets); every process killed at the end; ${cgroupNote}; ${userNote(user)}`,
    wrap: (command, args, env) => ({
      ...isolatedCommand({
        procsFiles: cgroup?.procsFiles ?? [],
        kept: [
          { path: workDir, readOnly: false },
          ...tools.moduleRoots.map((path) => ({ path, readOnly: true })),
        ],
        uid: user.uid,
        gid: user.gid,
        cwd: join(workDir, 'project'),
        tmpBytes: limits.tmpBytes,
        command,
        args,
      }),
      env: { ...env },
    }),
    hit: async () => (await cgroup?.hit()) ?? { memory: false, processes: false },
    close: async () => cgroup?.remove(),
  };
}

async function unshareSandbox(workDir: string): Promise<Sandbox> {
  return {
    ...(await hostFiles(workDir)),
    kind: 'unshare',
    note: 'network: none (unshare -rn: a new user and network namespace with only its own loopback)',
    wrap: (command, args, env) => ({
      command: 'unshare',
      // Loopback up inside the namespace, so a test may talk to a server it starts itself.
      args: [
        '-rn',
        '--',
        'sh',
        '-c',
        'PATH="$PATH:/usr/sbin:/sbin" ip link set lo up 2>/dev/null; exec "$@"',
        'gate',
        command,
        ...args,
      ],
      env: { ...env },
    }),
  };
}

/** The preload fallback; also what tests use to exercise it where unshare works. */
export async function preloadSandbox(workDir: string, why: string): Promise<Sandbox> {
  const files = await hostFiles(workDir);
  const file = join(files.hostDir, 'no-network.mjs');
  await writeFile(file, NO_NETWORK_PRELOAD, { mode: 0o644 });
  return {
    ...files,
    kind: 'preload',
    note: `network: blocked in each Node process by a preload (net, tls, dns, http, https, dgram, fetch); ${why}`,
    wrap: (command, args, env) => ({
      command,
      args: [...args],
      env: { ...env, NODE_OPTIONS: `--import=${pathToFileURL(file).href}` },
    }),
  };
}

const NO_NETWORK_PRELOAD = `// Written by the Platform gate: the network is off for this run.
import dgram from 'node:dgram';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';

const refuse = (what) =>
  function refused() {
    const error = new Error(\`network access is off in the Platform gate (\${what})\`);
    error.code = 'ENETUNREACH';
    throw error;
  };
net.connect = net.createConnection = refuse('net.connect');
net.Socket.prototype.connect = refuse('net.Socket#connect');
tls.connect = refuse('tls.connect');
http.request = http.get = refuse('http.request');
https.request = https.get = refuse('https.request');
dgram.createSocket = refuse('dgram.createSocket');
for (const name of Object.keys(dns)) {
  if (name !== 'promises' && typeof dns[name] === 'function' && /^(lookup|resolve|reverse)/.test(name)) dns[name] = refuse('dns.' + name);
}
for (const name of Object.keys(dns.promises)) {
  if (typeof dns.promises[name] === 'function' && /^(lookup|resolve|reverse)/.test(name)) dns.promises[name] = refuse('dns.promises.' + name);
}
dns.Resolver = dns.promises.Resolver = class {
  constructor() {
    refuse('dns.Resolver')();
  }
};
globalThis.fetch = async () => refuse('fetch')();
syncBuiltinESMExports();
`;
