// A version's tile and activation form (platform.json `tile`, `activationForm`): install checks the
// paths and builds them into the browser bundle beside the widgets, the listing records which exist,
// the marketplace answers hasTile and hasActivationForm, and the host serves their frames.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MarketplaceResponse } from '@platform/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installProject } from '../src/install/installProject.js';
import {
  addSourceAccount,
  addVersion,
  findSource,
  type InstalledVersion,
} from '../src/store/integrations.js';
import { installFixture, startTestHost, type TestHost } from './_host.js';

let host: TestHost;
let versions: InstalledVersion[];
const idOf = (slug: string) => versions.find((version) => version.slug === slug)!.id;
beforeAll(async () => {
  host = await startTestHost({ projects: [] });
  versions = await installFixture(host, 'web-forms');
  await addSourceAccount(host.db, versions[0]!.sourceId, host.accountId);
}, 120_000);
afterAll(() => host?.close());

describe('install', () => {
  it('records which frame components exist and bundles them beside the widgets', async () => {
    const { rows } = await host.db.query(
      'SELECT integration_slug, listing, browser_bundle FROM versions ORDER BY integration_slug',
    );
    const bySlug = Object.fromEntries(rows.map((row) => [row.integration_slug, row]));
    expect(bySlug['form-notes']!.listing).toEqual({
      name: 'Form Notes',
      description: 'Notes with a tile and an activation form.',
      icon: 'note-sticky',
      tile: true,
      activationForm: true,
    });
    expect(bySlug['hostile-form']!.listing).toEqual({ activationForm: true });
    const code = bySlug['form-notes']!.browser_bundle as string;
    expect(code).toMatch(/export\s*\{[^}]*\bwidgets\b/);
    expect(code).toMatch(/export\s*\{[^}]*\bas tile\b/);
    expect(code).toMatch(/export\s*\{[^}]*\bas activationForm\b/);
    expect(code).toContain('Form Notes keeps a notebook per account.');
    expect(bySlug['hostile-form']!.browser_bundle).not.toMatch(/\bas tile\b/);
  });

  it('refuses a tile outside the project or missing, and installs nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'platform-forms-'));
    await writeFile(join(dir, 'integration.ts'), "export default { slug: 'bad-forms' };\n");
    await writeFile(
      join(dir, 'platform.json'),
      JSON.stringify({
        integrations: [
          { slug: 'bad-forms', entry: 'integration.ts', tile: '../Tile.tsx', activationForm: 'Form.tsx' },
        ],
      }),
    );
    const before = (await host.db.query('SELECT count(*)::int AS n FROM versions')).rows[0]!.n;
    const failed = installProject({ db: host.db, runtime: host.services.runtime, projectDir: dir });
    await expect(failed).rejects.toThrow(
      /"tile" is "\.\.\/Tile\.tsx"; it must be a relative path inside the project/,
    );
    await expect(failed).rejects.toThrow(
      /"activationForm" names Form\.tsx, but the project has no such file/,
    );
    expect((await host.db.query('SELECT count(*)::int AS n FROM versions')).rows[0]!.n).toBe(before);
  });
});

describe('the marketplace', () => {
  it('answers hasTile, hasActivationForm and the live version id', async () => {
    const response = await host.call(`/api/platform/accounts/${host.accountId}/marketplace`);
    const { integrations } = ((await response.json()) as { data: MarketplaceResponse }).data;
    expect(
      integrations.map(({ slug, versionId, hasTile, hasActivationForm }) => ({
        slug,
        versionId,
        hasTile,
        hasActivationForm,
      })),
    ).toEqual([
      { slug: 'form-notes', versionId: idOf('form-notes'), hasTile: true, hasActivationForm: true },
      { slug: 'hostile-form', versionId: idOf('hostile-form'), hasTile: false, hasActivationForm: true },
    ]);
  });
});

describe('frames', () => {
  it('serves the tile and the activation form in the widget frame page, with its CSP', async () => {
    const id = idOf('form-notes');
    for (const [kind, title] of [
      ['tile', 'Form Notes tile'],
      ['activation-form', 'Form Notes activation form'],
    ] as const) {
      const response = await host.app.request(`http://host.test/web/frames/${id}/-/${kind}`);
      expect(response.status, kind).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain(`http://host.test/web/bundles/${id}.js`);
      expect(csp).toContain('sandbox allow-scripts allow-forms');
      expect(csp).toContain("connect-src 'none'");
      expect(csp).toContain('frame-ancestors http://host.test');
      const html = await response.text();
      expect(html).toContain(`data-kind="${kind}"`);
      expect(html).toContain(`<title>${title}</title>`);
    }
  });

  it('answers a kind the version lacks, an unknown kind or version with a 404 page that runs nothing', async () => {
    for (const [path, text] of [
      [
        `/web/frames/${idOf('hostile-form')}/-/tile`,
        'has no tile: its platform.json names no &quot;tile&quot;',
      ],
      [`/web/frames/${idOf('form-notes')}/-/settings`, 'There is no frame &quot;settings&quot;'],
      ['/web/frames/v-nope/-/tile', 'No version &quot;v-nope&quot; serves frames'],
    ] as const) {
      const response = await host.app.request(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'none'");
      expect(await response.text()).toContain(text);
    }
  });

  it('answers a version whose listing names a tile but that has no browser bundle with a 404 saying so', async () => {
    const first = versions.find((version) => version.slug === 'form-notes')!;
    const source = (await findSource(host.db, first.sourceId))!;
    const bare = await host.db.transaction((tx) =>
      addVersion(tx, {
        source,
        manifest: first.manifest,
        bundle: 'unused',
        status: 'dev',
        listing: { tile: true },
      }),
    );
    const response = await host.app.request(`/web/frames/${bare.id}/-/tile`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('has no browser bundle to draw its tile from');
  });
});
