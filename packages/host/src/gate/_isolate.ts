import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

// Run as root in the new mount, pid, network and IPC namespaces (pid 1 of its own pid namespace):
// loopback up, a private /run (host sockets, /var/run with it), /tmp and /dev/shm, the work folder
// bound back in place, then the command as the partner user. When it ends this shell (pid 1)
// exits and the kernel kills every process left in the namespace, setsid() or not.
const INNER = `set -e
work=$1 uid=$2 gid=$3 cwd=$4 tmpsize=$5; shift 5
PATH="$PATH:/usr/sbin:/sbin" ip link set lo up 2>/dev/null || true
mount -t tmpfs -o mode=755,size=1m gate-run /run
mkdir /run/gate-work
mount --bind "$work" /run/gate-work
mount -t tmpfs -o mode=1777,size=$tmpsize gate-tmp /tmp
mount -t tmpfs -o mode=1777,size=$tmpsize gate-shm /dev/shm
mkdir -p "$work"
mount --bind /run/gate-work "$work"
umount /run/gate-work
rmdir /run/gate-work
if [ ! -L /var/run ] && [ -d /var/run ]; then mount -t tmpfs -o mode=755,size=1m gate-var-run /var/run; fi
cd "$cwd"
set +e
setpriv --reuid="$uid" --regid="$gid" --clear-groups --no-new-privs -- "$@"
exit $?`;

// Joins the run's cgroups (before anything forks), then enters the namespaces.
const OUTER = `n=$1; shift
while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done
exec unshare --mount --pid --fork --kill-child --mount-proc --net --ipc --propagation private -- sh -c "$0" gate "$@"`;

/** The command line that runs `command` isolated, joining `procsFiles` first. */
export function isolatedCommand(options: {
  procsFiles: readonly string[];
  workDir: string;
  uid: number;
  gid: number;
  cwd: string;
  tmpBytes: number;
  command: string;
  args: readonly string[];
}): { command: string; args: string[] } {
  return {
    command: 'sh',
    args: [
      '-c',
      OUTER,
      INNER,
      String(options.procsFiles.length),
      ...options.procsFiles,
      options.workDir,
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
