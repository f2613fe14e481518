// Owns how a runner process is started: its Node flags (the permission model) and environment.
import { dirname } from 'node:path';
import { runnerEntry } from './_runnerEntry.js';
import { type ResolvedIsolatedVm, resolveIsolatedVm } from './isolatedVm.js';

/**
 * A runner's whole environment: nothing of the host's (its secrets), but one malloc setting. With
 * glibc's arena per thread (the runner's isolate threads each allocate) ~0.3 MiB per isolate stayed
 * unreturned (bench: runner RSS over 20 isolates 7.9-8.2 -> 7.6-7.7 MiB, calls no slower). Other C
 * libraries ignore it.
 */
export const RUNNER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '1' };

/**
 * Node flags of a runner: isolated-vm needs `--no-node-snapshot` and addons; the permission model
 * (`--permission` from Node 22, `--experimental-permission` on 20) lets it read only the runner's
 * folder and isolated-vm's, and spawn no process or worker; V8's young generation of each isolate
 * is sized so that a bundle's top level runs without a scavenge.
 */
export function runnerExecArgv(isolatedVm: ResolvedIsolatedVm = resolveIsolatedVm()): string[] {
  const permission = process.allowedNodeEnvironmentFlags.has('--permission')
    ? '--permission'
    : '--experimental-permission';
  return [
    '--no-node-snapshot',
    permission,
    // (runnerEntry: from source, the runner is bundled into that folder before it is forked.)
    `--allow-fs-read=${dirname(runnerEntry())}/*`,
    ...isolatedVm.readDirs.map((dir) => `--allow-fs-read=${dir}/*`),
    // node-gyp-build (isolated-vm 6.x/7.x) probes this file to pick glibc or musl prebuilds.
    '--allow-fs-read=/etc/alpine-release',
    '--allow-addons',
    '--no-warnings',
    // A new isolate's young generation starts at 2 MiB (isolated-vm's 128 MiB limit gave 1 MiB):
    // a bundle's top level (zod's classes, the guest engine) left ~2.9 MiB that two scavenges copied
    // while it ran, 5-6 ms of a 14-20 ms run; now none. Bounded at 4 MiB (Node's main isolate
    // otherwise grows to 16). Measured in the runner: cold start with code cache 24-26 -> 19-20 ms,
    // memory per isolate 6.7-7.0 -> 5.5-5.9 MiB (fewer objects promoted into sparse old pages).
    '--min-semi-space-size=2',
    '--max-semi-space-size=4',
  ];
}
