// The marketplace routes the web app's /marketplace pages read: the integrations a source serving
// the account offers, one listing with what it asks for, and what a newer live version widens
// against the one the account consented to when it activated. Install records the listing.
import type { MarketplaceListing, MarketplaceResponse } from '@platform/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installProject } from '../src/install/installProject.js';
import {
  addSourceAccount,
  addVersion,
  findSource,
  type InstalledVersion,
} from '../src/store/integrations.js';
import { addMembership, createAccount, createToken } from '../src/store/users.js';
import { FIXTURES, installFixture, startTestHost, type TestHost } from './_host.js';

let host: TestHost;
let version: InstalledVersion;
beforeAll(async () => {
  host = await startTestHost({ projects: [] });
  version = (await installFixture(host, 'marketplace'))[0]!;
  await addSourceAccount(host.db, version.sourceId, host.accountId);
});
afterAll(() => host?.close());

const market = (account = host.accountId) => `/api/platform/accounts/${account}/marketplace`;
const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
async function data<T>(response: Response): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

describe('install', () => {
  it('records the platform.json listing with the version, the docs as Markdown', async () => {
    const { rows } = await host.db.query('SELECT listing FROM versions WHERE id = $1', [version.id]);
    expect(rows[0]!.listing).toEqual({
      name: 'Market Notes',
      description: 'Notes for the marketplace tests.',
      icon: 'note-sticky',
      docs: '# Market Notes\n\nFinds your notes.\n',
    });
  });

  it('refuses a project with bad listing fields and installs nothing', async () => {
    const before = (await host.db.query('SELECT count(*)::int AS n FROM versions')).rows[0]!.n;
    const failed = installProject({
      db: host.db,
      runtime: host.services.runtime,
      projectDir: `${FIXTURES}marketplace-bad`,
    });
    await expect(failed).rejects.toThrow(/"icon" is "not-an-icon", which is not in the free icon set/);
    await expect(failed).rejects.toThrow(/"docs" is "\.\.\/outside\.md"; it must be a relative path/);
    expect((await host.db.query('SELECT count(*)::int AS n FROM versions')).rows[0]!.n).toBe(before);
  });
});

describe('GET /api/platform/accounts/:account/marketplace', () => {
  it('lists what the sources serving the account offer, with the listing and publisher', async () => {
    const { integrations } = await data<MarketplaceResponse>(await host.call(market()));
    expect(integrations).toEqual([
      {
        slug: 'market-notes',
        name: 'Market Notes',
        description: 'Notes for the marketplace tests.',
        icon: 'note-sticky',
        publisher: 'local',
        version: 1,
        activated: false,
        canActivate: true,
        versionId: version.id,
        hasTile: false,
        hasActivationForm: false,
      },
    ]);
  });

  it('takes the account by slug; a member reads it but cannot activate', async () => {
    const { slug } = (await host.db.query('SELECT slug FROM accounts WHERE id = $1', [host.accountId]))
      .rows[0]!;
    const member = await host.addUser('member');
    const admin = await host.addUser('admin');
    const asMember = await data<MarketplaceResponse>(
      await host.call(market(slug as string), as(member.token)),
    );
    expect(asMember.integrations.map((item) => [item.slug, item.canActivate])).toEqual([
      ['market-notes', false],
    ]);
    const asAdmin = await data<MarketplaceResponse>(await host.call(market(), as(admin.token)));
    expect(asAdmin.integrations[0]!.canActivate).toBe(true);
  });

  it('shows an account no source serves nothing, and the slug falls back when there is no name', async () => {
    const other = await createAccount(host.db, { slug: 'unserved-co', name: 'Unserved' });
    await addMembership(host.db, other.id, host.userId, 'owner');
    expect(await data<MarketplaceResponse>(await host.call(market(other.id)))).toEqual({ integrations: [] });
    const unnamed = await installFixture(host, 'notes');
    await addSourceAccount(host.db, unnamed[0]!.sourceId, other.id);
    const { integrations } = await data<MarketplaceResponse>(await host.call(market(other.id)));
    expect(integrations.map((item) => [item.slug, item.name, item.description, item.icon])).toEqual([
      ['market-notes', 'Market Notes', 'Notes for the marketplace tests.', 'note-sticky'],
      ['test-notes', 'test-notes', null, null],
    ]);
  });

  it('answers a non-member and an unknown account with the same 404, and refuses no credential', async () => {
    const stranger = await host.addUser('member', { member: false });
    for (const response of [
      await host.call(market(), as(stranger.token)),
      await host.call(market('no-such-account')),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        error: { code: 'account_not_found', hint: 'GET /api/platform/me lists your accounts.' },
      });
    }
    expect((await host.app.request(market())).status).toBe(401);
  });

  it("takes the browser's session cookie, and refuses a token without the read scope", async () => {
    const session = await createToken(host.db, { userId: host.userId, kind: 'session' });
    const byCookie = await host.app.request(market(), {
      headers: { cookie: `platform_session=${session.token}` },
    });
    expect((await data<MarketplaceResponse>(byCookie)).integrations.map((item) => item.slug)).toContain(
      'market-notes',
    );
    const publishOnly = await createToken(host.db, {
      userId: host.userId,
      kind: 'token',
      scopes: ['publish'],
    });
    const refused = await host.call(market(), as(publishOnly.token));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'forbidden', scope: 'read' } });
  });
});

describe('GET /api/platform/accounts/:account/marketplace/:slug', () => {
  const listing = (token?: string) =>
    host.call(`${market()}/market-notes`, token === undefined ? {} : as(token));

  it('shows the docs and what the integration asks for', async () => {
    expect(await data<MarketplaceListing>(await listing())).toEqual({
      slug: 'market-notes',
      name: 'Market Notes',
      description: 'Notes for the marketplace tests.',
      icon: 'note-sticky',
      publisher: 'local',
      version: 1,
      activated: false,
      canActivate: true,
      versionId: version.id,
      hasTile: false,
      hasActivationForm: false,
      docs: '# Market Notes\n\nFinds your notes.\n',
      egress: [
        { origin: 'https://api.market.test', wildcard: false },
        { origin: 'https://*.files.market.test', wildcard: true },
      ],
      oauth: { scopes: ['notes:read'] },
      storageScope: 'team',
      widgets: [{ id: 'market-board', name: 'Market board' }],
      tools: [
        {
          name: 'market_notes_find_notes',
          description: 'Finds notes by title',
          effect: 'read',
          sensitivity: 'low',
        },
      ],
      actions: ['list-notes'],
      activation: { active: false },
      widened: null,
    });
  });

  it('answers an unknown slug, and one no source serving the account offers, with a 404 and a hint', async () => {
    const other = await createAccount(host.db, { slug: 'unserved-two', name: 'Unserved' });
    await addMembership(host.db, other.id, host.userId, 'owner');
    for (const path of [`${market()}/no-such-thing`, `${market(other.id)}/market-notes`]) {
      const response = await host.call(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        error: {
          code: 'integration_not_found',
          hint: expect.stringMatching(/^GET \/api\/platform\/accounts\/.+\/marketplace lists/),
        },
      });
    }
  });

  it('after activation, shows what a newer live version widens against the consented one', async () => {
    const activate = await host.call(
      `/api/integrations/market-notes/activation?accountId=${host.accountId}`,
      {
        json: {},
      },
    );
    expect(activate.status, await activate.clone().text()).toBe(201);
    const consented = await data<MarketplaceListing>(await listing());
    expect(consented).toMatchObject({
      activated: true,
      activation: { active: true, consentedVersion: 1, activatedAt: expect.any(String) },
      widened: null,
    });

    const source = (await findSource(host.db, version.sourceId))!;
    const egress = [...version.manifest.egress, 'https://new.market.test'];
    await host.db.transaction((tx) =>
      addVersion(tx, {
        source,
        manifest: { ...version.manifest, egress },
        bundle: 'unused',
        status: 'dev',
        listing: { name: 'Market Notes 2' },
      }),
    );
    const member = await host.addUser('member');
    const widened = await data<MarketplaceListing>(await listing(member.token));
    expect(widened).toMatchObject({
      name: 'Market Notes 2',
      version: 2,
      canActivate: false,
      docs: null,
      activation: { active: true, consentedVersion: 1 },
      widened: {
        againstVersion: 1,
        egress: { added: ['https://new.market.test'], removed: [] },
        oauthScopes: { added: [], removed: [] },
        tools: [],
        storage: [],
        widens: true,
      },
    });

    // Activating again consents to the live version: nothing widens any more.
    const again = await host.call(`/api/integrations/market-notes/activation?accountId=${host.accountId}`, {
      json: {},
    });
    expect(again.status).toBe(200);
    expect(await data<MarketplaceListing>(await listing())).toMatchObject({
      activation: { consentedVersion: 2 },
      widened: null,
    });
  });
});
