// A new partner's project from `platform init`, as far as an end user's dashboard: the repo's built
// CLI scaffolds it outside this repo (`@platform/*` installed from a real `platform-host serve`'s
// registry, the rest from npm), publishes it to that host through the gate (a real gate job:
// type-check, tests, the server and the browser bundle), an admin promotes the gated version and
// serves the account from the source; then in Chromium the account's owner signs in, finds the
// project's tile on the marketplace and its listing, activates it there, and sees its widget
// render inside its sandboxed frame on the dashboard. Every page is screenshotted
// (test-results/screenshots/initToDashboard.browser.test.ts/*.png) and checked by axe-core in the
// page and inside the widget frame. One host (PGlite) and one browser for the whole file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { note, npmInstall, registryStatus } from '../../cli/test/_e2e.js';
import { cleanEnv, envelopeOf, run } from '../../cli/test/_helpers.js';
import { browserMissing, expectNoSeriousAxeViolations, useBrowser } from './_browser.js';
import { childEnv, runBin, type ServeProcess, startServe } from './_cli.js';

const noBrowser = browserMissing();
const registry = await registryStatus();
const skipReason = noBrowser ?? (registry.reachable ? undefined : registry.reason);
if (skipReason !== undefined) note(`init-to-dashboard browser test skipped: ${skipReason}.`);

const PASSWORD = 'correct horse battery';
const EMAIL = 'owner@acme.test';
// `platform init acme-tasks`: the slug comes from the folder, the widget's name from the slug.
const SLUG = 'acme-tasks';
const WIDGET = 'Acme Tasks';

describe.skipIf(skipReason !== undefined)(
  `a fresh platform init project, published through the gate, on the dashboard${skipReason === undefined ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    const chromium = useBrowser(import.meta.url);
    let root: string;
    let dataDir: string;
    let configDir: string;
    let app: string;
    let host: ServeProcess | undefined;
    let token: string;
    const env = childEnv();

    /** `platform-host admin ...` on the serving host's data folder (its admin channel with PGlite). */
    async function admin(args: readonly string[]): Promise<any> {
      const result = await runBin(['admin', ...args, '--data', dataDir, '--json'], { env });
      if (result.code !== 0)
        throw new Error(`platform-host admin ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
      return JSON.parse(result.stdout).data;
    }

    /** `platform <args>` (the repo's built CLI) in the project, with the test's config folder. */
    const platform = (args: readonly string[], timeoutMs = 60_000) =>
      run(args, { cwd: app, env: cleanEnv({ PLATFORM_CONFIG_DIR: configDir }), timeoutMs });

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'platform-init-dashboard-'));
      dataDir = join(root, 'data');
      configDir = join(root, 'config');
      host = await startServe(['--data', dataDir, '--port', '0', '--no-examples'], env);
      const created = await run(['init', SLUG, '--host', host.baseUrl, '--json'], { cwd: root });
      expect(created.code, created.stdout + created.stderr).toBe(0);
      app = join(root, SLUG);
      expect(JSON.parse(readFileSync(join(app, 'platform.json'), 'utf8')).integrations[0].slug).toBe(SLUG);
      await npmInstall(app);

      await admin(['user', 'create', '--email', EMAIL, '--name', 'Owner', '--password', PASSWORD]);
      await admin(['source', 'create', '--slug', 'acme', '--name', 'Acme', '--stage', 'production']);
      await admin(['seat', 'add', '--source', 'acme', '--email', EMAIL, '--role', 'publisher']);
      await admin(['account', 'create', '--slug', 'customer', '--name', 'Customer']);
      await admin(['member', 'add', '--account', 'customer', '--email', EMAIL, '--role', 'owner']);
      token = (
        await admin([
          'token',
          'create',
          '--email',
          EMAIL,
          '--name',
          'ci',
          '--scope',
          'publish',
          '--scope',
          'read',
        ])
      ).token;
      const login = await platform(['login', '--host', host.baseUrl, '--token', token, '--json']);
      expect(login.code, login.stdout + login.stderr).toBe(0);
      expect((await platform(['use', 'acme', '--json'])).code).toBe(0);
    }, 900_000);

    afterAll(async () => {
      await host?.stop();
      if (root !== undefined) rmSync(root, { recursive: true, force: true });
    });

    it('publishes the project through the gate (gated, with a browser bundle) and promotes it', async () => {
      const published = await platform(['publish', '--json'], 120_000);
      expect(published.code, published.stdout + published.stderr).toBe(0);
      const versionId = envelopeOf<{ versions: { id: string }[] }>(published).data!.versions[0]!.id;
      const watch = await platform(['status', '--watch', '--json'], 600_000);
      expect(watch.code, watch.stdout + watch.stderr).toBe(0);
      expect(JSON.stringify(envelopeOf(watch).data)).toContain('gated');
      // The gate's own checks ran on the project, the bundle check building its browser bundle.
      const logs = await fetch(`${host!.baseUrl}/api/platform/versions/${versionId}/logs`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(logs.status).toBe(200);
      const checks = (
        (await logs.json()) as { data: { checks: { name: string; status: string; log: string }[] } }
      ).data.checks;
      const byName = Object.fromEntries(checks.map((check) => [check.name, check]));
      for (const name of [
        'install',
        'checks/typecheck',
        'checks/typecheck-host-rules',
        'checks/tests',
        'bundle',
      ])
        expect(byName[name]?.status, name).toBe('passed');
      expect(byName.bundle!.log).toMatch(new RegExp(`${SLUG}: browser bundle \\d+\\.\\d KB compressed`));
      await admin(['version', 'promote', versionId]);
      await admin(['source-account', 'add', '--source', 'acme', '--account', 'customer']);
    }, 900_000);

    /** A fresh browser profile whose page errors and console errors are collected. */
    async function open(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
      const context = await chromium.browser().newContext({ viewport: { width: 1400, height: 900 } });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && !/status of 401/.test(message.text()))
          problems.push(`console: ${message.text()}`);
      });
      return { context, page, problems };
    }

    async function checkPage(page: Page, name: string, problems: string[]): Promise<void> {
      await chromium.screenshot(page, name);
      await expectNoSeriousAxeViolations(page, { frames: true, name });
      expect(problems, `problems on ${name}`).toEqual([]);
    }

    it('shows its tile and listing on the marketplace, activates it, and renders its widget in its frame', async () => {
      const origin = host!.baseUrl;
      const { context, page, problems } = await open();
      await page.goto(`${origin}/sign-in?next=%2Fmarketplace`);
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // No name in platform.json: the tile shows the slug.
      const tile = page.getByRole('listitem').filter({ hasText: SLUG });
      await tile.getByText('Not activated').waitFor();
      await checkPage(page, 'marketplace', problems);

      await tile.getByRole('link', { name: SLUG }).click();
      await page.locator('#listing-title').getByText(SLUG).waitFor();
      // What it asks for: the template's API origin, and its widget.
      await page.getByText('https://api.example.com').first().waitFor();
      await page.getByText(WIDGET).first().waitFor();
      await checkPage(page, 'marketplace-detail', problems);
      await page.getByRole('button', { name: 'Activate' }).click();
      await page.getByRole('button', { name: 'Deactivate' }).waitFor();
      await checkPage(page, 'marketplace-detail-activated', problems);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
      const widget = page.getByRole('region', { name: WIDGET });
      await widget.waitFor();
      expect(await widget.locator('iframe').getAttribute('sandbox')).toBe('allow-scripts allow-forms');
      // The template's widget, drawn by the partner's own bundle inside the sandboxed frame.
      const inside = page.frameLocator(`iframe[title="${WIDGET}"]`);
      await inside.getByText('No items yet.').waitFor();
      await checkPage(page, 'dashboard', problems);
      await context.close();
    }, 120_000);
  },
);
