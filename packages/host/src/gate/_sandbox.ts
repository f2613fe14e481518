import { execFile, spawn } from 'node:child_process';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { childEnv } from './_childEnv.js';

/** How partner code that runs in the gate (tsc, vitest and the tests) is kept off the network. */
export interface Sandbox {
  readonly kind: 'unshare' | 'preload';
  /** One line for the check log: which way, and why (and as which user). */
  readonly note: string;
  wrap(
    command: string,
    args: readonly string[],
    env: Readonly<Record<string, string>>,
  ): { command: string; args: string[]; env: Record<string, string>; uid?: number; gid?: number };
}

/**
 * Who partner code runs as in the gate. A host running as root hands the work folder to `nobody`
 * (65534) and runs tsc and the tests as that user, so they cannot read the host's files (its data
 * folder, secret key, home); a host running as another user cannot switch users, and says so.
 */
export const UNPRIVILEGED = { uid: 65534, gid: 65534, name: 'nobody' } as const;

const execFileAsync = promisify(execFile);

/**
 * The user partner code runs as, after handing `workDir` to it (root only). Creates the folders the
 * children write (home, tmp, `gate/`) first, so they belong to that user too.
 */
async function partnerUser(workDir: string): Promise<{ uid: number; gid: number } | undefined> {
  await childEnv(workDir);
  await mkdir(join(workDir, 'gate'), { recursive: true });
  if (process.getuid?.() !== 0) return undefined;
  await checkTraversable(workDir);
  await execFileAsync('chown', ['-R', `${UNPRIVILEGED.uid}:${UNPRIVILEGED.gid}`, workDir]);
  return { uid: UNPRIVILEGED.uid, gid: UNPRIVILEGED.gid };
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
export async function networkSandbox(workDir: string): Promise<Sandbox> {
  const why = await unshareUnavailable();
  const sandbox = why === undefined ? unshareSandbox() : await preloadSandbox(workDir, why);
  const user = await partnerUser(workDir);
  return {
    kind: sandbox.kind,
    note: `${sandbox.note}; ${userNote(user)}`,
    wrap: (command, args, env) => ({ ...sandbox.wrap(command, args, env), ...(user ?? {}) }),
  };
}

function unshareSandbox(): Sandbox {
  return {
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
  const dir = join(workDir, 'gate');
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'no-network.mjs');
  await writeFile(file, NO_NETWORK_PRELOAD);
  return {
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
