import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildBundle, createInProcessRuntime } from '@platform/host';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURES } from './_host.js';

// Two hosts in one process (the two-instance tests) share the in-process runtime's bundle folder:
// each runtime writes a version's file aside and renames it into place, so none imports a file
// another is still writing, and nothing is left behind.
let bundleDir: string;
beforeAll(async () => {
  bundleDir = await mkdtemp(join(tmpdir(), 'platform-in-process-'));
});
afterAll(() => rm(bundleDir, { recursive: true, force: true }));

it('loads one version in runtimes sharing a bundle folder, all at once', async () => {
  const bundle = await buildBundle(`${FIXTURES}scheduler-scale/integration.ts`);
  const runtimes = Array.from({ length: 8 }, () => createInProcessRuntime({ bundleDir }));
  const rounds = 6;
  try {
    for (let round = 0; round < rounds; round += 1) {
      // Each runtime reads the bundle a little later than the one before, as two hosts would.
      const version = (index: number) => ({
        id: `shared-v${round}`,
        loadBundle: () => new Promise<string>((resolve) => setTimeout(() => resolve(bundle), index)),
      });
      const manifests = await Promise.all(runtimes.map((runtime, index) => runtime.describe(version(index))));
      expect(manifests.map((manifest) => manifest.schedules.length)).toEqual(runtimes.map(() => 10));
    }
    expect((await readdir(bundleDir)).sort()).toEqual(
      Array.from({ length: rounds }, (_, round) => `shared-v${round}.mjs`).sort(),
    );
  } finally {
    await Promise.all(runtimes.map((runtime) => runtime.close()));
  }
});
