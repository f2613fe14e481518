// A version's tile and activation form in the web app, in a real Chromium: the tile renders in its
// sandboxed frame on the marketplace, an owner activates and fills the activation form and its data
// is saved through the bridge, a member sees no form, and a hostile activation form cannot write
// another integration's activation data. Screenshots in test-results/screenshots/webForms.browser.test.ts/.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSourceAccount, findActivation } from '../src/store/integrations.js';
import { addMembership, createUser } from '../src/store/users.js';
import { browserMissing, expectNoSeriousAxeViolations, useBrowser } from './_browser.js';
import { installFixture, startTestHost, type TestHost } from './_host.js';
import { type LoopbackServer, serveOnLoopback } from './_nodeServer.js';

const noBrowser = browserMissing();

describe.skipIf(noBrowser !== undefined)(
  `tiles and activation forms in Chromium${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
  () => {
    const chromium = useBrowser(import.meta.url);
    let host: TestHost;
    let server: LoopbackServer;
    let origin: string;
    const password = 'correct horse';

    beforeAll(async () => {
      host = await startTestHost({
        projects: [],
        limits: { signInAttemptsPerMinute: 1000, signInsPerAddressPerMinute: 1000 },
      });
      const versions = await installFixture(host, 'web-forms');
      await addSourceAccount(host.db, versions[0]!.sourceId, host.accountId);
      server = await serveOnLoopback(host.app.fetch);
      origin = server.origin;
    }, 120_000);

    afterAll(async () => {
      await server?.close();
      await host?.close();
    });

    async function signedIn(
      email: string,
    ): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
      const context = await chromium.browser().newContext({ viewport: { width: 1400, height: 900 } });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && !/status of 401/.test(message.text()))
          problems.push(`console: ${message.text()}`);
      });
      await page.goto(`${origin}/sign-in`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      return { context, page, problems };
    }

    async function checkPage(page: Page, name: string, problems: string[]): Promise<void> {
      await chromium.screenshot(page, name);
      await expectNoSeriousAxeViolations(page, { frames: true, name });
      expect(problems, `problems on ${name}`).toEqual([]);
    }

    it('draws the tile in its sandboxed frame on the marketplace', async () => {
      const { context, page, problems } = await signedIn(host.email);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Marketplace' }).click();
      const tile = page.getByRole('listitem').filter({ hasText: 'Form Notes' });
      const frame = tile.getByTitle('Form Notes tile');
      expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms');
      expect(await frame.getAttribute('src')).toMatch(/^\/web\/frames\/[^/]+\/-\/tile$/);
      await frame.contentFrame().getByText('Form Notes keeps a notebook per account.').waitFor();
      // The integration without a tile has no frame.
      const plain = page.getByRole('listitem').filter({ hasText: 'hostile-form' });
      await plain.getByText('Not activated').waitFor();
      expect(await plain.locator('iframe').count()).toBe(0);
      await checkPage(page, 'marketplace', problems);
      await context.close();
    });

    it('shows the activation form after Activate; what the owner saves becomes the activation data', async () => {
      const { context, page, problems } = await signedIn(host.email);
      await page.goto(`${origin}/marketplace/form-notes`);
      await page.locator('#listing-title').getByText('Form Notes').waitFor();
      expect(await page.getByRole('heading', { name: 'Set up Form Notes' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Activate' }).click();
      await page.getByRole('heading', { name: 'Set up Form Notes' }).waitFor();
      const form = page.getByTitle('Form Notes activation form');
      expect(await form.getAttribute('src')).toMatch(/^\/web\/frames\/[^/]+\/-\/activation-form$/);
      const inside = form.contentFrame();
      await inside.getByLabel('Notebook name').fill('Work notes');
      await inside.getByRole('button', { name: 'Save settings' }).click();
      await inside.getByRole('status').getByText('Settings saved.').waitFor();
      expect((await findActivation(host.db, 'form-notes', host.accountId))?.data).toEqual({
        notebook: 'Work notes',
      });
      await checkPage(page, 'activation-form', problems);

      // Reloaded, the form reads the saved data back through the bridge.
      await page.reload();
      await expect
        .poll(() =>
          page
            .getByTitle('Form Notes activation form')
            .contentFrame()
            .getByLabel('Notebook name')
            .inputValue(),
        )
        .toBe('Work notes');
      await context.close();
    });

    it('shows a member no activation form and no members list; an owner sees the members', async () => {
      const email = `member-${Date.now()}@example.test`;
      const member = await createUser(host.db, { email, name: 'Member', password });
      await addMembership(host.db, host.accountId, member.id, 'member');
      const asMember = await signedIn(email);
      await asMember.page.goto(`${origin}/marketplace/form-notes`);
      await asMember.page.getByRole('heading', { name: 'What it asks for' }).waitFor();
      expect(await asMember.page.getByTitle('Form Notes activation form').count()).toBe(0);
      await asMember.page.goto(`${origin}/settings`);
      await asMember.page.getByRole('heading', { name: /^Tools for models in / }).waitFor();
      expect(await asMember.page.getByRole('heading', { name: /^Members of / }).count()).toBe(0);
      expect(asMember.problems).toEqual([]);
      await asMember.context.close();

      const { context, page, problems } = await signedIn(host.email);
      await page.goto(`${origin}/settings`);
      const section = page.getByRole('region', { name: /^Members of / });
      await section.getByRole('cell', { name: email }).waitFor();
      await section.getByRole('cell', { name: host.email }).waitFor();
      const rows = section.getByRole('row');
      expect(await rows.count()).toBe(3);
      expect(await rows.nth(1).textContent()).toContain('owner');
      expect(await rows.nth(2).textContent()).toContain('member');
      await checkPage(page, 'settings-members', problems);
      await context.close();
    });

    it("refuses a hostile activation form another integration's activation data", async () => {
      const { context, page, problems } = await signedIn(host.email);
      await page.goto(`${origin}/marketplace/hostile-form`);
      await page.getByRole('button', { name: 'Activate' }).click();
      const inside = page.getByTitle('hostile-form activation form').contentFrame();
      await inside.getByText('Other slug activation: HTTP 403').waitFor();
      expect((await findActivation(host.db, 'form-notes', host.accountId))?.data).toEqual({
        notebook: 'Work notes',
      });
      expect(problems).toEqual([]);
      await context.close();
    });
  },
);
