// The host's web app in a real Chromium, one browser and one host for every page: sign-in (a wrong
// password, the authenticator code), the signed-in pages' navigation, settings, sign-out. Every
// page is screenshotted (test-results/screenshots/web-*.png), checked by axe-core, and runs under
// the host's own Content-Security-Policy with no console error.
import type { AddressInfo } from 'node:net';
import { type ServerType, serve as serveNode } from '@hono/node-server';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, screenshot, seriousAxeViolations } from '../../cli/test/_browser.js';
import { adminUserTotp } from '../src/cli/admin.js';
import { addMembership, createUser } from '../src/store/users.js';
import { startTestHost, type TestHost } from './_host.js';

const noBrowser = browserMissing();

describe.skipIf(noBrowser !== undefined)(
  `the web app in Chromium${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
  () => {
    let host: TestHost;
    let server: ServerType;
    let origin: string;
    let browser: Browser;
    const password = 'correct horse';

    beforeAll(async () => {
      host = await startTestHost({ projects: ['tools'] });
      server = await new Promise<ServerType>((resolve) => {
        const started = serveNode({ fetch: host.app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
          resolve(started),
        );
      });
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => server?.close(resolve));
      await host?.close();
    });

    /** A fresh browser profile whose page errors and CSP refusals (console errors) are collected. */
    async function open(
      viewport = { width: 1400, height: 900 },
    ): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
      const context = await browser.newContext({ viewport });
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
      await screenshot(page, `web-${name}`);
      expect(await seriousAxeViolations(page), `axe on ${name}`).toEqual([]);
      expect(problems, `problems on ${name}`).toEqual([]);
    }

    async function signIn(page: Page, email: string, secret = password): Promise<void> {
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(secret);
      await page.getByRole('button', { name: 'Sign in' }).click();
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
