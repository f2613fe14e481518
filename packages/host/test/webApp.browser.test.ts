// The host's web app in a real Chromium, one browser and one host for every page: sign-in (a wrong
// password, the authenticator code), the signed-in pages' navigation, settings, sign-out. Every
// page is screenshotted (test-results/screenshots/webApp.browser.test.ts/*.png), checked by
// axe-core in the page and inside each widget frame, and runs under the host's own
// Content-Security-Policy with no console error.
import { fileURLToPath } from 'node:url';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUserTotp } from '../src/cli/admin.js';
import { installProject } from '../src/install/installProject.js';
import { addSourceAccount } from '../src/store/integrations.js';
import { addMembership, createUser } from '../src/store/users.js';
import { browserMissing, expectNoSeriousAxeViolations, useBrowser } from './_browser.js';
import { startTestHost, type TestHost } from './_host.js';
import { type LoopbackServer, serveOnLoopback } from './_nodeServer.js';

const noBrowser = browserMissing();
const EXAMPLE = fileURLToPath(new URL('../../../examples/acme-notes', import.meta.url));

describe.skipIf(noBrowser !== undefined)(
  `the web app in Chromium${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
  () => {
    const chromium = useBrowser(import.meta.url);
    let host: TestHost;
    let server: LoopbackServer;
    let origin: string;
    const password = 'correct horse';

    beforeAll(async () => {
      // Every test signs the same owner in afresh: more than sign-in's per-email limit of a minute.
      host = await startTestHost({
        projects: ['tools'],
        limits: { signInAttemptsPerMinute: 1000, signInsPerAddressPerMinute: 1000 },
      });
      // The example, installed but not activated: the marketplace tests activate it.
      const { versions } = await installProject({
        db: host.db,
        runtime: host.services.runtime,
        projectDir: EXAMPLE,
      });
      await addSourceAccount(host.db, versions[0]!.sourceId, host.accountId);
      server = await serveOnLoopback(host.app.fetch);
      origin = server.origin;
    }, 120_000);

    afterAll(async () => {
      await server?.close();
      await host?.close();
    });

    /** A fresh browser profile whose page errors and CSP refusals (console errors) are collected. */
    async function open(
      viewport = { width: 1400, height: 900 },
    ): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
      const context = await chromium.browser().newContext({ viewport });
      // Under the test's own timeout, so a wait that fails says which.
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        // A 401 from /me while signed out is the app asking, not a fault.
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

    async function signIn(page: Page, email: string, secret = password): Promise<void> {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(secret);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }

    /** Signs the seeded user in at `viewport` and waits for the example's two widgets on the dashboard. */
    async function openDashboard(viewport: { width: number; height: number }) {
      const opened = await open(viewport);
      await opened.page.goto(`${origin}/sign-in`);
      await signIn(opened.page, host.email);
      const board = opened.page.getByRole('region', { name: 'Acme Notes board' });
      const recent = opened.page.getByRole('region', { name: 'Recent notes' });
      await board.waitFor();
      await recent.waitFor();
      return { ...opened, board, recent };
    }

    it('sends a signed-out visitor to sign-in, refuses a wrong password, then signs in to where they were', async () => {
      const { context, page, problems } = await open();
      await page.goto(`${origin}/settings`);
      await page.waitForURL(`${origin}/sign-in?next=%2Fsettings`);
      await page.getByRole('heading', { name: 'Sign in to Platform' }).waitFor();
      await checkPage(page, 'sign-in', problems);

      await signIn(page, host.email, 'wrong password');
      await expect(page.getByRole('alert').textContent()).resolves.toContain('Wrong email or password');
      expect((await context.cookies()).filter((cookie) => cookie.name === 'platform_session')).toEqual([]);
      await checkPage(page, 'sign-in-wrong-password', problems);

      await signIn(page, host.email);
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      expect(page.url()).toBe(`${origin}/settings`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
      await nav.getByRole('link', { name: 'Marketplace' }).waitFor();
      await checkPage(page, 'settings', problems);

      await nav.getByRole('link', { name: 'Dashboard' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      expect(page.url()).toBe(`${origin}/`);
      await checkPage(page, 'dashboard', problems);
      await context.close();
    });

    it('never follows ?next= off this origin', async () => {
      const { context, page } = await open();
      await page.goto(`${origin}/sign-in?next=${encodeURIComponent('//evil.example/')}`);
      await signIn(page, host.email);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      expect(page.url()).toBe(`${origin}/`);
      await context.close();
    });

    it('asks a user with TOTP for the code, refuses a wrong one, accepts the current one', async () => {
      const email = `totp-${Date.now()}@example.test`;
      await createUser(host.db, { email, name: 'Totp User', password });
      const enabled = await adminUserTotp({ dataDir: '', host, email });
      const totp = new TOTP({ secret: Secret.fromBase32(enabled.secret) });
      const { context, page, problems } = await open();
      await page.goto(`${origin}/sign-in`);
      await signIn(page, email);
      const code = page.getByLabel('Code');
      await code.waitFor();
      await checkPage(page, 'sign-in-code', problems);
      await code.fill(totp.generate() === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toContain('authenticator code is wrong');
      // Reloading keeps the code step: the password half of the session is kept by the host.
      await page.reload();
      await page.getByLabel('Code').fill(totp.generate());
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      problems.length = 0;
      await context.close();
    });

    it('creates and lists a personal token on settings, then signs out for the API too', async () => {
      const { context, page, problems } = await open();
      await page.goto(`${origin}/sign-in?next=%2Fsettings`);
      await signIn(page, host.email);
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await page.getByLabel('Token name').fill('laptop script');
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.getByText('copy it now').waitFor();
      await page.getByRole('cell', { name: 'laptop script', exact: true }).waitFor();
      await page.getByText('(this session)').waitFor();
      await checkPage(page, 'settings-token', problems);

      const session = (await context.cookies()).find((cookie) => cookie.name === 'platform_session');
      expect(session).toBeDefined();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${origin}/sign-in`);
      const me = await fetch(`${origin}/api/platform/me`, {
        headers: { cookie: `platform_session=${session?.value}` },
      });
      expect(me.status).toBe(401);
      await context.close();
    });

    it("lets an owner set a tool's policy on settings, and shows a member the policies read-only", async () => {
      const { context, page, problems } = await open();
      await page.goto(`${origin}/sign-in?next=%2Fsettings`);
      await signIn(page, host.email);
      const tools = (await (await host.call(`/api/platform/accounts/${host.accountId}/tools`)).json()).data
        .tools;
      const name: string = tools[0].name;
      const policy = page.getByLabel(`Policy for ${name}`);
      await policy.selectOption('block');
      await expect
        .poll(async () => {
          const answer = await (await host.call(`/api/platform/accounts/${host.accountId}/tools`)).json();
          return answer.data.tools.find((tool: { name: string }) => tool.name === name).policy;
        })
        .toBe('block');
      await checkPage(page, 'settings-tools-owner', problems);
      await context.close();

      const email = `member-${Date.now()}@example.test`;
      const member = await createUser(host.db, { email, name: 'Member', password });
      await addMembership(host.db, host.accountId, member.id, 'member');
      const second = await open();
      await second.page.goto(`${origin}/sign-in?next=%2Fsettings`);
      await signIn(second.page, email);
      await second.page.getByText('Only an account owner or admin can change these policies.').waitFor();
      expect(await second.page.getByLabel(`Policy for ${name}`).isDisabled()).toBe(true);
      expect(await second.page.getByLabel(`Policy for ${name}`).inputValue()).toBe('block');
      await checkPage(second.page, 'settings-tools-member', second.problems);
      await second.context.close();
    });

    /** A member (not an owner) with a password, signed in on a page of their own. */
    async function memberPage(viewport?: { width: number; height: number }) {
      const email = `member-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`;
      const member = await createUser(host.db, { email, name: 'Member', password });
      await addMembership(host.db, host.accountId, member.id, 'member');
      const opened = await open(viewport);
      await opened.page.goto(`${origin}/sign-in`);
      await signIn(opened.page, email);
      await opened.page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      return opened;
    }

    it('lists the example in the marketplace, shows what it asks for, and lets only an owner activate it', async () => {
      const member = await memberPage();
      await member.page.goto(`${origin}/marketplace/acme-notes`);
      await member.page.getByText('An account owner or admin can activate Acme Notes.').waitFor();
      expect(await member.page.getByRole('button', { name: 'Activate' }).count()).toBe(0);
      await checkPage(member.page, 'marketplace-detail-member', member.problems);
      await member.context.close();

      const { context, page, problems } = await open();
      await page.goto(`${origin}/sign-in?next=%2Fmarketplace`);
      await signIn(page, host.email);
      const tile = page.getByRole('listitem').filter({ hasText: 'Acme Notes' });
      await tile.getByText('Not activated').waitFor();
      await checkPage(page, 'marketplace', problems);
      await tile.getByRole('link', { name: 'Acme Notes' }).click();
      await page.locator('#listing-title').getByText('Acme Notes').waitFor();
      // What it asks for, and the partner's docs rendered (sanitised) from platform.json's docs.
      await page.getByText('https://api.acme-notes.example').first().waitFor();
      await page.getByRole('heading', { name: 'Documentation' }).waitFor();
      await checkPage(page, 'marketplace-detail', problems);
      await page.getByRole('button', { name: 'Activate' }).click();
      await page.getByRole('button', { name: 'Deactivate' }).waitFor();
      await page.getByRole('link', { name: 'Connect' }).waitFor();
      await checkPage(page, 'marketplace-detail-activated', problems);
      await context.close();
    });

    it('draws the widgets where the layouts put them at 1400 px, in a sandboxed frame, and runs an action through the bridge', async () => {
      const { context, page, problems, board, recent } = await openDashboard({ width: 1400, height: 900 });
      const boardBox = (await board.boundingBox())!;
      const recentBox = (await recent.boundingBox())!;
      // layouts.lg: the board 8 columns at the left, recent notes 4 columns beside it on one row.
      expect(recentBox.x).toBeGreaterThan(boardBox.x + boardBox.width - 1);
      expect(Math.abs(recentBox.y - boardBox.y)).toBeLessThan(2);
      expect(boardBox.width / recentBox.width).toBeGreaterThan(1.7);
      const frame = board.locator('iframe');
      expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms');
      const inside = page.frameLocator('iframe[title="Acme Notes board"]');
      await inside.getByLabel('Title').fill('Written through the bridge');
      await inside.getByRole('button', { name: 'Add note' }).click();
      await inside.getByText('Written through the bridge').first().waitFor();
      const stored = await host.db.query(
        "SELECT value FROM storage WHERE integration_slug = 'acme-notes' AND key = 'cache/notes' AND account_id = $1",
        [host.accountId],
      );
      expect(JSON.stringify(stored.rows[0]?.value)).toContain('Written through the bridge');
      await checkPage(page, 'dashboard-1400', problems);
      await context.close();
    });

    it('keeps collapse and pin per user across reloads and browsers, where the chrome flags allow', async () => {
      const { context, page } = await open({ width: 1400, height: 900 });
      await page.goto(`${origin}/sign-in`);
      await signIn(page, host.email);
      const board = page.getByRole('region', { name: 'Acme Notes board' });
      const recent = page.getByRole('region', { name: 'Recent notes' });
      await recent.waitFor();
      // The recent-notes widget is not pinnable: the chrome offers no pin there.
      expect(await recent.getByRole('button', { name: 'Pin' }).count()).toBe(0);
      await board.getByRole('button', { name: 'Pin' }).click();
      await board.getByRole('button', { name: 'Unpin' }).waitFor();
      await recent.getByRole('button', { name: 'Collapse' }).click();
      await recent.getByRole('button', { name: 'Expand' }).waitFor();
      await page.reload();
      await page
        .getByRole('region', { name: 'Recent notes' })
        .getByRole('button', { name: 'Expand' })
        .waitFor();
      const other = await open({ width: 1400, height: 900 });
      await other.page.goto(`${origin}/sign-in`);
      await signIn(other.page, host.email);
      const again = other.page.getByRole('region', { name: 'Recent notes' });
      const pinned = other.page.getByRole('region', { name: 'Acme Notes board' });
      await again.getByRole('button', { name: 'Expand' }).waitFor();
      await pinned.getByRole('button', { name: 'Unpin' }).waitFor();
      await checkPage(other.page, 'dashboard-pinned-collapsed', other.problems);
      // Another user's dashboard is their own.
      const member = await memberPage({ width: 1400, height: 900 });
      await member.page
        .getByRole('region', { name: 'Recent notes' })
        .getByRole('button', { name: 'Collapse' })
        .waitFor();
      await member.page
        .getByRole('region', { name: 'Acme Notes board' })
        .getByRole('button', { name: 'Pin' })
        .waitFor();
      await member.context.close();
      await pinned.getByRole('button', { name: 'Unpin' }).click();
      await pinned.getByRole('button', { name: 'Pin' }).waitFor();
      await again.getByRole('button', { name: 'Expand' }).click();
      await again.getByRole('button', { name: 'Collapse' }).waitFor();
      await other.context.close();
      await context.close();
    });

    for (const viewport of [
      { width: 900, height: 900, name: 'dashboard-900' },
      { width: 390, height: 844, name: 'dashboard-390' },
    ]) {
      it(`lays the dashboard out at ${viewport.width} px without sideways scrolling`, async () => {
        const { context, page, problems, board, recent } = await openDashboard(viewport);
        // The grid animates its items into place: measured once they have settled.
        await expect
          .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
          .toBeLessThanOrEqual(0);
        if (viewport.width < 768) {
          // One column: stacked in lg order, each the page's width.
          const [a, b] = [(await board.boundingBox())!, (await recent.boundingBox())!];
          expect(Math.abs(a.x - b.x)).toBeLessThan(2);
          expect(b.y).toBeGreaterThan(a.y);
        }
        await checkPage(page, viewport.name, problems);
        await context.close();
      });
    }

    it('deactivates after a confirmation, and the widgets leave the dashboard', async () => {
      const { context, page, problems } = await open();
      await page.goto(`${origin}/sign-in?next=%2Fmarketplace%2Facme-notes`);
      await signIn(page, host.email);
      await page.getByRole('button', { name: 'Deactivate' }).click();
      await page.getByRole('button', { name: 'Yes, deactivate' }).click();
      await page.getByRole('button', { name: 'Activate' }).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
      await page.getByText('No integration with widgets is activated in this account.').waitFor();
      await checkPage(page, 'dashboard-empty', problems);
      await context.close();
    });

    it('fits a phone without sideways scrolling', async () => {
      const { context, page, problems } = await open({ width: 390, height: 844 });
      await page.goto(`${origin}/sign-in?next=%2Fsettings`);
      await signIn(page, host.email);
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await checkPage(page, 'settings-390', problems);
      await context.close();
    });
  },
);
