// OAuth for MCP clients in a real Chromium: a client's authorization link opened signed out goes
// through the host's sign-in page to the consent page (client, where it goes back, the account
// picker, every tool with its effect and sensitivity), "Allow" hands the client a code it
// exchanges for a token that lists tools on /mcp, "Deny" hands it access_denied. Screenshots and
// axe on the consent page; no console error under the host's CSP.
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve as serveNode } from '@hono/node-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, screenshot, seriousAxeViolations } from '../../cli/test/_browser.js';
import { addMembership, createAccount } from '../src/store/users.js';
import { startTestHost, type TestHost } from './_host.js';

const noBrowser = browserMissing();
const REDIRECT = 'http://127.0.0.1:33418/callback';

describe.skipIf(noBrowser !== undefined)(
  `MCP client consent in Chromium${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
  () => {
    let host: TestHost;
    let server: ServerType;
    let origin: string;
    let browser: Browser;
    let clientId: string;

    beforeAll(async () => {
      host = await startTestHost({ projects: ['tools'] });
      const second = await createAccount(host.db, {
        slug: `second-${randomBytes(3).toString('hex')}`,
        name: 'Second Co',
      });
      await addMembership(host.db, second.id, host.userId, 'member');
      server = await new Promise<ServerType>((resolve) => {
        const started = serveNode({ fetch: host.app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
          resolve(started),
        );
      });
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const registered = await fetch(`${origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Desk Assistant', redirect_uris: [REDIRECT] }),
      });
      clientId = ((await registered.json()) as { client_id: string }).client_id;
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => server?.close(resolve));
      await host?.close();
    });

    /** Opens the client's authorization link signed out, signs in, and waits for the consent page. */
    async function toConsent(): Promise<{
      page: Page;
      verifier: string;
      problems: string[];
      close(): Promise<void>;
    }> {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && !/status of 401/.test(message.text()))
          problems.push(message.text());
      });
      // The client's loopback listener: it answers whatever the host sends back.
      await page.route(`${REDIRECT}**`, (route) =>
        route.fulfill({ contentType: 'text/plain', body: 'back at the client' }),
      );
      const verifier = randomBytes(32).toString('base64url');
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        state: 'browser-state',
        resource: `${origin}/mcp`,
      });
      await page.goto(`${origin}/oauth/authorize?${query}`);
      await page.waitForURL(/\/sign-in\?next=%2Foauth%2Fconsent/);
      await page.getByLabel('Email').fill(host.email);
      await page.getByLabel('Password').fill('correct horse');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Allow Desk Assistant to use your tools?' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/oauth/consent');
      return { page, verifier, problems, close: () => context.close() };
    }

    it('signs in, shows the client, the accounts and the tools, and "Allow" gives the client a working code', async () => {
      const { page, verifier, problems, close } = await toConsent();
      await expect(page.getByText('127.0.0.1:33418').count()).resolves.toBeGreaterThan(0);
      const picker = page.getByLabel('Account it may use');
      await expect(picker.locator('option').count()).resolves.toBe(2);
      const tools = page.getByRole('region', { name: /^Tools Desk Assistant will get in/ });
      const deleteRow = tools.getByRole('row', { name: /test_tools_delete_notes/ });
      await expect(deleteRow.textContent()).resolves.toContain('destructive');
      const searchRow = tools.getByRole('row', { name: /test_tools_search_notes/ });
      await expect(searchRow.textContent()).resolves.toContain('read');
      await screenshot(page, 'web-oauth-consent');
      expect(await seriousAxeViolations(page)).toEqual([]);

      await picker.selectOption(host.accountId);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(`${REDIRECT}**`);
      const back = new URL(page.url());
      expect(back.searchParams.get('state')).toBe('browser-state');
      const code = back.searchParams.get('code') ?? '';
      expect(code).toMatch(/^pmc_/);
      const exchanged = await fetch(`${origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          client_id: clientId,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
        }),
      });
      expect(exchanged.status).toBe(200);
      const { access_token: access } = (await exchanged.json()) as { access_token: string };
      const listed = await fetch(`${origin}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${access}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'b', version: '1' },
          },
        }),
      });
      expect(listed.status).toBe(200);
      const grants = await host.call('/api/platform/mcp/grants');
      expect(((await grants.json()) as { data: { grants: { accountId: string }[] } }).data.grants).toEqual([
        expect.objectContaining({ clientName: 'Desk Assistant', accountId: host.accountId }),
      ]);
      expect(problems).toEqual([]);
      await close();
    });

    it('"Deny" sends the client access_denied and no code', async () => {
      const { page, problems, close } = await toConsent();
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.waitForURL(`${REDIRECT}**`);
      const back = new URL(page.url());
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe('browser-state');
      expect(back.searchParams.get('code')).toBeNull();
      expect(problems).toEqual([]);
      await close();
    });
  },
);
