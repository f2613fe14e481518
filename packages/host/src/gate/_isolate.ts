import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

// Run as root in the new mount, pid, network and IPC namespaces (pid 1 of its own pid namespace):
// loopback up, a private /run (host sockets, /var/run with it), /tmp and /dev/shm, then the kept
// paths (the work folder read-write, the host's toolchain read-only) bound back in place, since
// either may live under /tmp or /run, then the command as the partner user. When it ends this
// shell (pid 1) exits and the kernel kills every process left in the namespace, setsid() or not.
function innerScript(kept: readonly KeptPath[]): string {
  const stage = (path: KeptPath, at: number) =>
    `mkdir -p /run/gate-keep/${at}\nmount --bind ${quoted(path.path)} /run/gate-keep/${at}`;
  const restore = (path: KeptPath, at: number) =>
    [
      `mkdir -p ${quoted(path.path)}`,
      `mount --bind /run/gate-keep/${at} ${quoted(path.path)}`,
      ...(path.readOnly ? [`mount -o remount,bind,ro ${quoted(path.path)}`] : []),
      `umount /run/gate-keep/${at}`,
    ].join('\n');
  return `set -e
uid=$1 gid=$2 cwd=$3 tmpsize=$4; shift 4
PATH="$PATH:/usr/sbin:/sbin" ip link set lo up 2>/dev/null || true
mount -t tmpfs -o mode=755,size=1m gate-run /run
${kept.map(stage).join('\n')}
mount -t tmpfs -o mode=1777,size=$tmpsize gate-tmp /tmp
mount -t tmpfs -o mode=1777,size=$tmpsize gate-shm /dev/shm
if [ ! -L /var/run ] && [ -d /var/run ]; then mount -t tmpfs -o mode=755,size=1m gate-var-run /var/run; fi
${kept.map(restore).join('\n')}
rm -rf /run/gate-keep
cd "$cwd"
set +e
setpriv --reuid="$uid" --regid="$gid" --clear-groups --no-new-privs -- "$@"
exit $?`;
}

/** A host path the sandbox sees at the same place, even under the private /tmp or /run. */
export interface KeptPath {
  readonly path: string;
  readonly readOnly: boolean;
}

function quoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

// Joins the run's cgroups (before anything forks), then enters the namespaces.
const OUTER = `n=$1; shift
while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done
exec unshare --mount --pid --fork --kill-child --mount-proc --net --ipc --propagation private -- sh -c "$0" gate "$@"`;

/**
 * The command line that runs `command` isolated, joining `procsFiles` first. `kept` is bound back
 * in order, parents before children (sorted here), so nested paths stay visible.
 */
export function isolatedCommand(options: {
  procsFiles: readonly string[];
  kept: readonly KeptPath[];
  uid: number;
  gid: number;
  cwd: string;
  tmpBytes: number;
  command: string;
  args: readonly string[];
}): { command: string; args: string[] } {
  const kept = [...options.kept].sort((a, b) => a.path.length - b.path.length);
  return {
    command: 'sh',
    args: [
      '-c',
      OUTER,
      innerScript(kept),
      String(options.procsFiles.length),
      ...options.procsFiles,
      String(options.uid),
      String(options.gid),
      options.cwd,
      String(options.tmpBytes),
      options.command,
      ...options.args,
    ],
  };
}

let probe: Promise<string | undefined> | undefined;

/** Why the mount/pid/network/IPC namespaces cannot be used here, or undefined when they can (tried once). */
export function isolationUnavailable(): Promise<string | undefined> {
  probe ??= new Promise((resolve) => {
    if (process.getuid?.() !== 0) return resolve('the host does not run as root');
    if (!existsSync('/usr/bin/setpriv') && !existsSync('/bin/setpriv'))
      return resolve('setpriv is not installed');
    const child = spawn(
      'unshare',
      ['--mount', '--pid', '--fork', '--kill-child', '--mount-proc', '--net', '--ipc', 'true'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
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
      resolve(
        code === 0
          ? undefined
          : `unshare --mount --pid --net --ipc failed (${stderr.trim() || `exit ${code}`})`,
      );
    });
  });
  return probe;
}
