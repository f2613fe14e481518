// OAuth for MCP clients in a real Chromium: a client's authorization link opened signed out goes
// through the host's sign-in page to the consent page (client, where it goes back, the account
// picker, every tool with its effect and sensitivity), "Allow" hands the client a code it
// exchanges for a token that lists tools on /mcp, "Deny" hands it access_denied. After "Allow",
// /settings lists the grant under "Connected assistants"; "Revoke" (confirmed) removes it and the
// token then gets 401 on /mcp. Screenshots (test-results/screenshots/mcpConsent.browser.test.ts/)
// and axe on the consent page and the settings section; no console error under the host's CSP.
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve as serveNode } from '@hono/node-server';
import { type McpGrant, mcpGrantsResponseSchema } from '@platform/wire';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createAccount } from '../src/store/users.js';
import { browserMissing, expectNoSeriousAxeViolations, useBrowser } from './_browser.js';
import { startTestHost, type TestHost } from './_host.js';

const noBrowser = browserMissing();
const REDIRECT = 'http://127.0.0.1:33418/callback';

describe.skipIf(noBrowser !== undefined)(
  `MCP client consent in Chromium${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
  () => {
    const chromium = useBrowser(import.meta.url);
    let host: TestHost;
    let server: ServerType;
    let origin: string;
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
    }, 120_000);

    afterAll(async () => {
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
      const context = await chromium.browser().newContext({ viewport: { width: 1200, height: 900 } });
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

    /** "Allow" for the account, back at the client with a code, exchanged for an access token. */
    async function allowAndExchange(page: Page, verifier: string, accountId: string): Promise<string> {
      await page.getByLabel('Account it may use').selectOption(accountId);
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
      return ((await exchanged.json()) as { access_token: string }).access_token;
    }

    /** An MCP `initialize` on /mcp with the access token. */
    function initialize(access: string): Promise<Response> {
      return fetch(`${origin}/mcp`, {
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
    }

    /** The seeded user's grants, as the API lists them. */
    async function listedGrants(): Promise<McpGrant[]> {
      const answer = await host.call('/api/platform/mcp/grants');
      return mcpGrantsResponseSchema.parse(((await answer.json()) as { data: unknown }).data).grants;
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
      await chromium.screenshot(page, 'oauth-consent');
      await expectNoSeriousAxeViolations(page, { name: 'the consent page' });

      const access = await allowAndExchange(page, verifier, host.accountId);
      expect((await initialize(access)).status).toBe(200);
      expect(await listedGrants()).toEqual([
        expect.objectContaining({ clientName: 'Desk Assistant', accountId: host.accountId }),
      ]);
      expect(problems).toEqual([]);
      await close();
    });

    it('lists the grant on /settings, and "Revoke" (confirmed) removes it and ends its token on /mcp', async () => {
      for (const grant of await listedGrants()) {
        const revoked = await host.call(`/api/platform/mcp/grants/${grant.id}`, { method: 'DELETE' });
        expect(revoked.status).toBe(200);
      }
      const { page, verifier, problems, close } = await toConsent();
      const access = await allowAndExchange(page, verifier, host.accountId);
      expect((await initialize(access)).status).toBe(200);
      const [grant] = await listedGrants();
      expect(grant?.clientName).toBe('Desk Assistant');

      await page.goto(`${origin}/settings`);
      const section = page.getByRole('region', { name: 'Connected assistants' });
      const row = section.getByRole('row', { name: /Desk Assistant/ });
      await row.waitFor();
      const slug = grant?.accountSlug ?? '';
      expect(slug).not.toBe('');
      await expect(row.textContent()).resolves.toContain(`(${slug})`);
      // Used once (the initialize above): "Last used" is a time, not "Never".
      await expect(row.locator('time').count()).resolves.toBe(2);
      await chromium.screenshot(page, 'settings-connected-assistants');
      await expectNoSeriousAxeViolations(page, { name: 'settings, connected assistants' });

      await row.getByRole('button', { name: `Revoke Desk Assistant in ${slug}` }).click();
      const confirm = section.getByRole('group', { name: 'Confirm revoking' });
      await confirm.waitFor();
      await chromium.screenshot(page, 'settings-connected-assistants-confirm');
      await expectNoSeriousAxeViolations(page, { name: 'settings, confirm revoking' });
      // Cancel keeps the grant; the second time it is revoked.
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm.count()).resolves.toBe(0);
      expect(await listedGrants()).toHaveLength(1);
      await row.getByRole('button', { name: `Revoke Desk Assistant in ${slug}` }).click();
      await confirm.getByRole('button', { name: 'Yes, revoke' }).click();
      await section.getByRole('status').filter({ hasText: 'Desk Assistant is disconnected' }).waitFor();
      await section.getByText('No assistant is connected.').waitFor();
      await expect(section.getByText(`${origin}/mcp`, { exact: true }).count()).resolves.toBe(1);
      await expect(row.count()).resolves.toBe(0);
      await chromium.screenshot(page, 'settings-connected-assistants-empty');
      await expectNoSeriousAxeViolations(page, { name: 'settings, no connected assistant' });

      expect(await listedGrants()).toEqual([]);
      const refused = await initialize(access);
      expect(refused.status).toBe(401);
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
