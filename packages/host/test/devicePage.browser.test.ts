// The device sign-in page in a real Chromium: sign in, enter the authenticator code, approve or
// deny the CLI's code, under the page's own Content-Security-Policy. Each step is screenshotted
// (test-results/screenshots/devicePage.browser.test.ts/) and checked by axe-core.
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUserTotp } from '../src/cli/admin.js';
import { createUser } from '../src/store/users.js';
import { browserMissing, expectNoSeriousAxeViolations, useBrowser } from './_browser.js';
import { startTestHost, type TestHost } from './_host.js';
import { type LoopbackServer, serveOnLoopback } from './_nodeServer.js';

const noBrowser = browserMissing();

describe.skipIf(noBrowser !== undefined)(
  `the /device page in Chromium${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
  () => {
    const chromium = useBrowser(import.meta.url);
    let host: TestHost;
    let server: LoopbackServer;
    let origin: string;
    let totp: TOTP;
    const email = 'page-user@example.test';
    const password = 'correct horse battery';

    beforeAll(async () => {
      host = await startTestHost({ projects: [] });
      await createUser(host.db, { email, name: 'Page User', password });
      const enabled = await adminUserTotp({ dataDir: '', host, email });
      totp = new TOTP({ secret: Secret.fromBase32(enabled.secret) });
      server = await serveOnLoopback(host.app.fetch);
      origin = server.origin;
    }, 120_000);

    afterAll(async () => {
      await server?.close();
      await host?.close();
    });

    const post = async (path: string, body: unknown) =>
      (await (
        await fetch(`${origin}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as { ok: boolean; data?: any; error?: any };

    async function open(url: string, problems: string[]): Promise<Page> {
      const page = await chromium.browser().newPage();
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      // A CSP refusal shows up as a console error.
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console: ${message.text()}`);
      });
      await page.goto(url);
      return page;
    }

    async function checkPage(page: Page, name: string): Promise<void> {
      await chromium.screenshot(page, name);
      await expectNoSeriousAxeViolations(page, { name });
    }

    it('signs in, takes the authenticator code, and approves the prefilled code', async () => {
      const device = (await post('/api/platform/device/code', { client_name: 'browser test' })).data;
      expect(device.verification_uri).toBe(`${origin}/device`);
      const problems: string[] = [];
      const page = await open(device.verification_uri_complete, problems);
      await page.getByLabel('Email').waitFor();
      await checkPage(page, 'device-sign-in');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // A wrong code first: the page says so and stays.
      await page.getByLabel('Authenticator code').fill('000000' === totp.generate() ? '111111' : '000000');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('authenticator code is wrong').waitFor({ timeout: 30_000 });
      await checkPage(page, 'device-code-wrong');
      await page.getByLabel('Authenticator code').fill(totp.generate());
      await page.getByRole('button', { name: 'Verify' }).click();
      // The prefilled code is looked up and shown: who asked, from where, when; nothing approved yet.
      const review = page.getByRole('heading', { name: 'A sign-in is waiting for your approval' });
      await review.waitFor({ timeout: 30_000 });
      await checkPage(page, 'device-review');
      // The script finds its elements by id: each id once (a second `approve` left Approve dead).
      const ids = await page.evaluate(() =>
        [...document.querySelectorAll('[id]')].map((element) => element.id),
      );
      expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
      expect(await page.locator('#review-code').textContent()).toBe(device.user_code);
      expect(await page.locator('#review-client').textContent()).toBe('browser test');
      expect(await page.locator('#review-address').textContent()).toBe('127.0.0.1');
      expect(await page.locator('#review-time').textContent()).not.toBe('');
      expect(await post('/api/platform/device/token', { device_code: device.device_code })).toMatchObject({
        ok: false,
        error: { code: 'authorization_pending' },
      });
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Approved. Return to your terminal').waitFor({ timeout: 30_000 });
      await checkPage(page, 'device-approved');

      const issued = await post('/api/platform/device/token', { device_code: device.device_code });
      expect(issued).toMatchObject({
        ok: true,
        data: { token_type: 'Bearer', mfa_pending: true, user: { email } },
      });

      // Signed in already: the next code is typed, reviewed, denied. Its name is markup, shown as text.
      const markup = '<img src=x onerror="document.title=1"><b>evil</b>';
      const second = (await post('/api/platform/device/code', { client_name: markup })).data;
      await page.goto(`${origin}/device`);
      await page.getByText(`Signed in as ${email}`).waitFor({ timeout: 30_000 });
      await checkPage(page, 'device-enter-code');
      await page.getByLabel('Code', { exact: true }).fill(second.user_code.toLowerCase());
      await page.getByRole('button', { name: 'Continue' }).click();
      await review.waitFor({ timeout: 30_000 });
      expect(await page.locator('#review-client').textContent()).toBe(markup);
      expect(await page.locator('#review-client img').count()).toBe(0);
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.getByText('Denied.').waitFor({ timeout: 30_000 });
      await checkPage(page, 'device-denied');
      expect(await post('/api/platform/device/token', { device_code: second.device_code })).toMatchObject({
        ok: false,
        error: { code: 'access_denied' },
      });
      // Only the wrong code's 401 reached the console (Chromium logs failed fetches).
      expect(problems.filter((problem) => !/status of 401/.test(problem))).toEqual([]);
      await page.close();
    });
  },
);
