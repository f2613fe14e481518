// The harness's OAuth loop in Chromium: `platform dev` on a project whose integration declares
// OAuth against a real authorization server (oidc-provider over HTTPS on loopback), the stock
// OAuthActivationForm's Connect link, the provider's redirects, the callback, and the Activation
// surface showing the connection from the live store.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from '../../host/test/fixtures/oauth/authorizationServer.js';
import { browserMissing, launchChromium, screenshot, seriousAxeViolations } from './_browser.js';
import { freePort } from './_chromium.js';
import { buildHarnessBeforeAll, type Dev, devProject, startDev, stop } from './_dev.js';
import { cleanEnv } from './_helpers.js';

const noBrowser = browserMissing();
const SLUG = 'dev-notes';
const CLIENT = { clientId: 'harness-client', clientSecret: 'harness secret:+/%&' };

buildHarnessBeforeAll();

function integrationSource(providerOrigin: string): string {
  return `import { defineIntegration } from '@platform/sdk/integration';
import { NotesWidget } from './NotesWidget';

export default defineIntegration({
  slug: '${SLUG}',
  egress: ['${providerOrigin}'],
  components: {
    widgets: [{ id: 'dev-notes-board', name: 'Notes', component: NotesWidget, icon: 'note-sticky' }],
  },
  oauth: {
    provider: {
      authorizationUrl: '${providerOrigin}/auth',
      tokenUrl: '${providerOrigin}/token',
      scopes: ['read', 'write'],
      pkce: true,
    },
    credentials: { clientIdSecretName: 'NOTES_CLIENT_ID', clientSecretSecretName: 'NOTES_CLIENT_SECRET' },
    onTokens: async (ctx, tokens) => {
      await ctx.secrets.set('NOTES_ACCESS_TOKEN', tokens.accessToken);
    },
  },
});
`;
}

const HARNESS_CONFIG = `import { asHarnessDefinition, defineHarnessConfig, harnessWidgetsFromDefinition } from '@platform/harness';
import definition from './src/dev-notes/integration';

export const harnessIntegrations = defineHarnessConfig([
  {
    slug: '${SLUG}',
    name: 'Dev Notes',
    description: 'Notes, connected over OAuth.',
    definition: asHarnessDefinition(definition),
    widgets: harnessWidgetsFromDefinition(definition),
    live: { default: 'live' },
    oauth: { setup: { notes: ['Register the callback URL shown here with the provider.'] } },
  },
]);
`;

describe.skipIf(noBrowser !== undefined)(
  `the OAuth loop in Chromium against a real authorization server${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
  () => {
    let server: AuthorizationServer;
    let dev: Dev;
    let project: string;

    beforeAll(async () => {
      const port = await freePort();
      server = await startAuthorizationServer([
        {
          ...CLIENT,
          tokenAuthMethod: 'client_secret_basic',
          pkceRequired: true,
          redirectUri: `http://127.0.0.1:${port}/api/integrations/${SLUG}/oauth/callback`,
        },
      ]);
      project = devProject();
      writeFileSync(join(project, 'src', 'dev-notes', 'integration.ts'), integrationSource(server.origin));
      writeFileSync(join(project, 'harness.config.ts'), HARNESS_CONFIG);
      mkdirSync(join(project, '.platform'), { recursive: true });
      writeFileSync(
        join(project, '.platform', 'local-secrets.json'),
        JSON.stringify({ NOTES_CLIENT_ID: CLIENT.clientId, NOTES_CLIENT_SECRET: CLIENT.clientSecret }),
        { mode: 0o600 },
      );
      const ca = join(project, '.platform', 'provider-ca.pem');
      writeFileSync(ca, server.ca);
      dev = await startDev(project, {
        port,
        env: cleanEnv({ PLATFORM_HARNESS_ALLOW_LOOPBACK: '1', NODE_EXTRA_CA_CERTS: ca }),
      });
    }, 180_000);

    afterAll(async () => {
      if (dev !== undefined) expect(await stop(dev)).toBe(0);
      await server?.close();
    });

    it('connects from the Activation surface: provider, callback, onTokens, Connected', async () => {
      const browser = await launchChromium(['--ignore-certificate-errors']);
      try {
        const page = await browser.newPage();
        await page.goto(new URL(`${SLUG}/activation`, dev.report.url).href);
        await page.getByText('Not connected', { exact: true }).first().waitFor({ timeout: 60_000 });
        expect(await page.getByLabel('Data mode').inputValue()).toBe('live');
        await screenshot(page, 'oauth-before');

        await page.getByRole('link', { name: 'Connect Dev Notes' }).click();
        await page.waitForURL(new RegExp(`/${SLUG}/activation`), { timeout: 60_000 });
        expect(new URL(page.url()).searchParams.get(`${SLUG}_oauth_error`)).toBeNull();
        await page.getByText('Connected', { exact: true }).first().waitFor({ timeout: 60_000 });
        await screenshot(page, 'oauth-connected');
        expect(await seriousAxeViolations(page)).toEqual([]);

        const token = server.tokenRequests.at(-1);
        expect(token?.status).toBe(200);
        expect(token?.params.code_verifier).toBeTruthy();
        expect(dev.stderr()).toContain(`OAuth ${SLUG}: connected`);
        // The harness log never carries the token the provider issued.
        expect(dev.stderr()).not.toContain(String(server.tokenResponses.at(-1)?.access_token));
      } finally {
        await browser.close();
      }
    }, 180_000);
  },
);
