import { cgroupUnavailable } from './_cgroup.js';
import { isolationUnavailable } from './_isolate.js';
import { unshareUnavailable } from './_sandbox.js';

/**
 * The gate's sandbox protections this machine lacks, one sentence each naming what is missing,
 * why and what partner code then can do (`platform-host serve` prints them at start; each check
 * log says how its run was sandboxed). Empty: every protection is in place.
 */
export async function missingGateProtections(): Promise<string[]> {
  const missing: string[] = [];
  const isolation = await isolationUnavailable();
  if (isolation !== undefined) {
    missing.push(
      `own mount, pid and IPC namespaces per run (${isolation}): tests share /tmp and /dev/shm, can reach host Unix sockets, and processes they leave behind are killed only by process group`,
    );
    if (process.getuid?.() !== 0) {
      missing.push(
        'a separate user for partner code (the host does not run as root): tests can read what the host user can',
      );
    }
    const network = await unshareUnavailable();
    if (network !== undefined) {
      missing.push(
        `a network namespace (${network}): the network is refused by a preload in each Node process only`,
      );
    }
  }
  const cgroup = cgroupUnavailable();
  if (cgroup !== undefined || isolation !== undefined) {
    missing.push(
      `a cgroup per run (${cgroup ?? 'it needs the namespaces above'}): no memory, process or CPU limit; only the time limits and the gate's deadline hold`,
    );
  }
  return missing;
}
