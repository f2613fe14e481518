// The real host end to end: `platform-host serve` from this checkout packs the workspace packages
// into its registry on the first request, `platform init --host` points a new project at it, and
// npm installs `@platform/*` from it, never from the public registry (whose @platform scope is
// someone else's).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestReport, ValidateReport } from '@platform/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, type ServeProcess, startServe } from '../../host/test/_cli.js';
import { browserMissing, expectScaffoldSurfacesServed } from './_browser.js';
import {
  installedPlatform,
  installScaffold,
  note,
  platformLockEntries,
  registryStatus,
  scaffoldAgainstRegistry,
} from './_e2e.js';
import { envelopeOf, run } from './_helpers.js';

const registry = await registryStatus();
if (!registry.reachable) note(`registry end-to-end test skipped: ${registry.reason}.`);

describe.skipIf(!registry.reachable)(
  'a project installed from the registry of a running platform-host serve',
  () => {
    let root: string;
    let app: string;
    let host: ServeProcess | undefined;
    let platform: ReturnType<typeof installedPlatform>;
    let installMs: number;

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'platform-e2e-registry-'));
      host = await startServe(
        ['--data', join(root, 'data'), '--port', '0', '--no-examples'],
        childEnv({ PLATFORM_RUNTIME: 'in-process' }),
      );
      app = await scaffoldAgainstRegistry(root, host.baseUrl);
      const started = performance.now();
      const install = await installScaffold(app, 'npm', ['--omit-lockfile-registry-resolved=false']);
      installMs = performance.now() - started;
      if (install.code !== 0)
        throw new Error(
          `npm install failed (${install.code}):\n${install.stdout}\n${install.stderr}\n${host.output()}`,
        );
      platform = installedPlatform(app);
    }, 600_000);

    afterAll(async () => {
      await host?.stop();
      if (root !== undefined) rmSync(root, { recursive: true, force: true });
    });

    it('writes the host into .npmrc, and serve packs the workspace packages on the first request', () => {
      expect(readFileSync(join(app, '.npmrc'), 'utf8')).toContain(
        `@platform:registry=${host!.baseUrl}/registry/\n`,
      );
      expect(host!.banner).toContain(`Registry:     ${host!.baseUrl}/registry/`);
      expect(host!.output()).toMatch(/registry: packed 6 packages in \d+\.\d s/);
      note(
        `${/registry: packed 6 packages in [\d.]+ s/.exec(host!.output())?.[0]}; npm install ${(installMs / 1000).toFixed(1)} s`,
      );
    });

    it('resolves every @platform/* package to the host, with the integrity the host serves', async () => {
      const entries = platformLockEntries(app, 'npm');
      expect(entries.map((entry) => entry.name).sort()).toEqual([
        '@platform/cli',
        '@platform/harness',
        '@platform/integration-schema',
        '@platform/sdk',
        '@platform/ui',
        '@platform/wire',
      ]);
      for (const entry of entries) {
        const short = entry.name.slice('@platform/'.length);
        expect(entry.resolved, entry.name).toBe(
          `${host!.baseUrl}/registry/${entry.name}/-/${short}-${entry.version}.tgz`,
        );
        const packument = (await (
          await fetch(`${host!.baseUrl}/registry/${entry.name.replace('/', '%2f')}`)
        ).json()) as { versions: Record<string, { dist: { integrity: string } }> };
        expect(entry.integrity, entry.name).toBe(packument.versions[entry.version]?.dist.integrity);
      }
    });

    it('passes platform validate and platform test', async () => {
      const validated = await run(['validate', '--json'], { cwd: app, ...platform });
      expect(validated.code, validated.stderr).toBe(0);
      expect(envelopeOf<ValidateReport>(validated).data?.findings).toEqual([]);
      const tested = await run(['test', '--json'], { cwd: app, ...platform });
      expect(tested.code, tested.stderr).toBe(0);
      expect(envelopeOf<TestReport>(tested).data?.counts).toMatchObject({ total: 2, passed: 2, failed: 0 });
    });

    const noBrowser = browserMissing();
    it.skipIf(noBrowser !== undefined)(
      `serves the harness with platform dev: every surface in Chromium${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
      () => expectScaffoldSurfacesServed(app, platform, 'e2e-registry'),
      180_000,
    );
  },
);
