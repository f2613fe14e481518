import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCHEMA_VERSION } from '@platform/integration-schema';
import { describe, expect, it } from 'vitest';
import { SHELL_CONTRACT } from '../commands/dev/shellContract.js';
import { CLI_VERSION } from '../version.js';
import { CLI_TRAIN, LOCKSTEP_PACKAGES, PLATFORM_PINS } from './pins.js';
import { servesRange } from './registry.js';

// The release train as the workspace ships it: what the host's registry serves is packed from
// these package.json files, and what `init` and `upgrade` pin must install from it.
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

interface Manifest {
  name: string;
  version: string;
  platform?: { shellContract?: number };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifests: Manifest[] = ['packages', 'examples'].flatMap((folder) =>
  readdirSync(join(REPO_ROOT, folder), { withFileTypes: true })
    // A folder without a package.json is no workspace package (examples/acme-status uses the root's).
    .filter((entry) => entry.isDirectory() && existsSync(join(REPO_ROOT, folder, entry.name, 'package.json')))
    .map(
      (entry) =>
        JSON.parse(readFileSync(join(REPO_ROOT, folder, entry.name, 'package.json'), 'utf8')) as Manifest,
    ),
);
const manifest = (name: string) => manifests.find((item) => item.name === name)!;
const versionOf = (name: string) => manifest(name).version;

describe('the release train in this workspace', () => {
  it('releases sdk, ui and integration-schema at the schema version', () => {
    expect(LOCKSTEP_PACKAGES.map(versionOf)).toEqual(LOCKSTEP_PACKAGES.map(() => SCHEMA_VERSION));
  });

  it('has every workspace package pin the others exactly at their version (npm links, never fetches, them)', () => {
    const pins = manifests.flatMap((item) =>
      [item.dependencies, item.devDependencies, item.peerDependencies].flatMap((ranges) =>
        Object.entries(ranges ?? {})
          .filter(([name]) => manifests.some((other) => other.name === name))
          .map(([name, range]) => ({
            pin: `${item.name} -> ${name}@${range}`,
            exact: range === versionOf(name),
          })),
      ),
    );
    expect(pins.length).toBeGreaterThan(0);
    expect(pins.filter((pin) => !pin.exact).map((pin) => pin.pin)).toEqual([]);
  });

  it('bundles exactly the schema it compares projects with, at CLI_VERSION', () => {
    expect(manifest('@platform/cli').dependencies?.['@platform/integration-schema']).toBe(SCHEMA_VERSION);
    expect(versionOf('@platform/cli')).toBe(CLI_VERSION);
  });

  it("puts the harness on the train, speaking this CLI's shell contract", () => {
    const harness = manifest('@platform/harness');
    expect(harness.version.split('.').slice(0, 2).join('.')).toBe(CLI_TRAIN);
    expect(harness.platform?.shellContract).toBe(SHELL_CONTRACT);
  });

  it('scaffolds and upgrades to ranges the packed workspace versions satisfy', () => {
    for (const [name, range] of Object.entries(PLATFORM_PINS)) {
      expect(servesRange([versionOf(name)], range), `${name} ${versionOf(name)} against ${range}`).toBe(true);
    }
  });
});
