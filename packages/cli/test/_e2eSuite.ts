import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestReport, ValidateReport } from '@platform/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, expectScaffoldSurfacesServed } from './_browser.js';
import {
  installedPlatform,
  installScaffold,
  integrityOf,
  note,
  packWorkspacePackages,
  platformLockEntries,
  registryStatus,
  scaffoldAgainstRegistry,
  startRegistry,
} from './_e2e.js';
import { envelopeOf, run } from './_helpers.js';

/**
 * End to end with one package manager: `platform init --host` outside this repo, install
 * (`@platform/*` from the host's registry routes serving the packed workspace packages,
 * third-party packages from the npm registry), then the installed `platform`
 * binary validates and tests the project, which also type-checks and passes its lint preset.
 * Skipped, with the reason printed, only when the registry is unreachable.
 */
export async function describeInstalledProject(manager: 'npm' | 'pnpm'): Promise<void> {
  const registry = await registryStatus();
  if (!registry.reachable) note(`${manager} end-to-end tests skipped: ${registry.reason}.`);
  const title = `a project made by platform init, installed with ${manager}${registry.reachable ? '' : ` (skipped: ${registry.reason})`}`;

  describe.skipIf(!registry.reachable)(title, () => {
    let root: string;
    let app: string;
    let platform: ReturnType<typeof installedPlatform>;
    let tarballs: Record<string, string>;
    let host: Awaited<ReturnType<typeof startRegistry>> | undefined;

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), `platform-e2e-${manager}-`));
      tarballs = packWorkspacePackages(join(root, 'registry'));
      host = await startRegistry(join(root, 'registry'));
      app = await scaffoldAgainstRegistry(root, host.url);
      // npm records each package's tarball URL (a user config may say otherwise), for the check below.
      const install = await installScaffold(
        app,
        manager,
        manager === 'npm' ? ['--omit-lockfile-registry-resolved=false'] : [],
      );
      if (install.code !== 0)
        throw new Error(`${manager} install failed (${install.code}):\n${install.stdout}\n${install.stderr}`);
      if (manager === 'pnpm') expect(install.stdout + install.stderr).not.toContain('Ignored build scripts');
      platform = installedPlatform(app);
    }, 600_000);

    afterAll(async () => {
      await host?.close();
      if (root !== undefined) rmSync(root, { recursive: true, force: true });
    });

    it('installs the platform binary from the packed @platform/cli', () => {
      expect(existsSync(platform.command)).toBe(true);
      expect(existsSync(join(app, 'node_modules', '@platform', 'cli', 'dist', 'bin.js'))).toBe(true);
    });

    it("installs every @platform/* package from the host's registry, none from the public one", () => {
      const entries = platformLockEntries(app, manager);
      expect(entries.map((entry) => entry.name).sort()).toEqual(Object.keys(tarballs).sort());
      for (const entry of entries) {
        // The public registry's @platform scope is someone else's: the bytes must be our tarballs.
        expect(entry.integrity, entry.name).toBe(integrityOf(tarballs[entry.name]!));
        if (manager === 'npm')
          expect(entry.resolved, entry.name).toMatch(new RegExp(`^${host!.url}/registry/@platform/`));
        else if (entry.resolved !== undefined)
          expect(entry.resolved).toMatch(new RegExp(`^${host!.url}/registry/`));
      }
    });

    it('passes platform validate', async () => {
      const result = await run(['validate', '--json'], { cwd: app, ...platform });
      expect(result.code, result.stderr).toBe(0);
      const report = envelopeOf<ValidateReport>(result).data;
      expect(report?.findings).toEqual([]);
      expect(report?.integrations).toEqual([
        {
          slug: 'app',
          entry: 'src/app/integration.ts',
          definitionSlug: 'app',
          loaded: true,
          // The template's widget, built for the browser as the host's gate builds it.
          browserBundle: { gzipBytes: expect.any(Number) },
        },
      ]);
      // Under pnpm the schema is not hoisted: it is found through the project's sdk.
      expect(report?.schema).toEqual({ bundled: '0.5.0', project: '0.5.0', skewed: false });
    });

    it('passes platform test', async () => {
      const result = await run(['test', '--json'], { cwd: app, ...platform });
      expect(result.code, result.stderr).toBe(0);
      expect(envelopeOf<TestReport>(result).data?.counts).toEqual({
        total: 2,
        passed: 2,
        failed: 0,
        skipped: 0,
        todo: 0,
        failedFiles: 0,
      });
    });

    it('type-checks under strict and noUncheckedIndexedAccess, harness.config.ts included', async () => {
      const result = await run(['--noEmit', '-p', 'tsconfig.json'], {
        cwd: app,
        command: join(app, 'node_modules', '.bin', 'tsc'),
        env: platform.env,
      });
      expect(result.code, result.stdout).toBe(0);
    });

    // Whether Chromium is here is known when the suite is collected: a skip prints its reason.
    const noBrowser = browserMissing();
    it.skipIf(noBrowser !== undefined)(
      `serves the harness with platform dev: every surface in Chromium${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
      () => expectScaffoldSurfacesServed(app, platform, `e2e-${manager}`),
      180_000,
    );

    it('passes its lint preset', async () => {
      const result = await run(['check', '.'], {
        cwd: app,
        command: join(app, 'node_modules', '.bin', 'biome'),
        env: platform.env,
      });
      expect(result.code, result.stdout + result.stderr).toBe(0);
    });
  });
}
