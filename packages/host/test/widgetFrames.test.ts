// Widget frames: install stores each version's browser bundle (the shared runtime left as bare
// imports), and the host serves it and the frame page that loads it.
import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { SHARED_MODULES } from '@platform/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SHARED_MODULES, buildBrowserBundle } from '../src/bundle/buildBrowserBundle.js';
import { FIXTURES, startTestHost, type TestHost } from './_host.js';

describe('browser bundles', () => {
  it('bundles the widgets as one ES module with the shared runtime left as bare imports', async () => {
    const { code, gzipBytes } = await buildBrowserBundle(`${FIXTURES}hostile-widget/integration.ts`, {
      confineTo: [`${FIXTURES}hostile-widget`],
    });
    expect(code).toMatch(/export\s*\{[^}]*widgets/);
    expect(code).toMatch(/from\s*"@platform\/sdk\/hooks"/);
    expect(code).toMatch(/from\s*"react\/jsx-runtime"/);
    // React itself is not inside: its internals' name never appears.
    expect(code).not.toContain('__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE');
    expect(gzipBytes).toBe(gzipSync(Buffer.from(code)).byteLength);
    expect(gunzipSync(gzipSync(Buffer.from(code))).toString()).toBe(code);
    expect(BROWSER_SHARED_MODULES).toContain('@platform/ui');
  });

  it("leaves zod's translations out like the server bundle: the example's bundle stays small", async () => {
    const example = fileURLToPath(new URL('../../../examples/acme-notes/', import.meta.url));
    const { code, gzipBytes } = await buildBrowserBundle(`${example}src/acme-notes/integration.ts`, {
      confineTo: [example],
    });
    expect(code).not.toContain('attendu');
    // The error limit is 128 KB compressed; zod's translations alone would pass 100 KB.
    expect(gzipBytes).toBeLessThan(80 * 1024);
  });

  it('refuses a file outside the project', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'platform-outside-'));
    const project = await mkdtemp(join(tmpdir(), 'platform-project-'));
    await writeFile(join(outside, 'secret.js'), 'export const secret = "host file";\n');
    await writeFile(
      join(project, 'integration.js'),
      `import { secret } from ${JSON.stringify(join(outside, 'secret.js'))};\nexport default { secret };\n`,
    );
    await expect(
      buildBrowserBundle(join(project, 'integration.js'), { confineTo: [project] }),
    ).rejects.toThrow(/outside the project/);
  });
});

describe('install', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ projects: ['hostile-widget', 'notes'] });
  }, 120_000);
  afterAll(() => host?.close());

  it('stores the browser bundle and its gzip size with a version that has widgets, none without', async () => {
    const { rows } = await host.db.query(
      `SELECT v.integration_slug, v.browser_bundle, v.browser_bundle_gzip_bytes
       FROM versions v ORDER BY v.integration_slug`,
    );
    const bySlug = Object.fromEntries(rows.map((row) => [row.integration_slug, row]));
    const widget = bySlug['hostile-widget']!;
    expect(widget.browser_bundle).toMatch(/from\s*"react"/);
    expect(widget.browser_bundle_gzip_bytes).toBe(gzipSync(Buffer.from(widget.browser_bundle)).byteLength);
    expect(bySlug['test-notes']).toMatchObject({ browser_bundle: null, browser_bundle_gzip_bytes: null });
  });

  async function versionOf(slug: string): Promise<string> {
    const { rows } = await host.db.query('SELECT id FROM versions WHERE integration_slug = $1', [slug]);
    return rows[0]!.id as string;
  }

  it('serves the stored bundle as immutable JavaScript any origin may import, 404 for the unknown', async () => {
    const id = await versionOf('hostile-widget');
    const response = await host.app.request(`/web/bundles/${id}.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toMatch(/export\s*\{[^}]*widgets/);
    for (const path of [
      `/web/bundles/${await versionOf('test-notes')}.js`,
      '/web/bundles/nope.js',
      `/web/bundles/${id}`,
    ]) {
      expect((await host.app.request(path)).status, path).toBe(404);
    }
  });

  it('serves the frame page: import map by hash, the bootstrap, the one bundle, sandboxed by its CSP', async () => {
    const id = await versionOf('hostile-widget');
    const response = await host.app.request(`http://host.test/web/frames/${id}/probe`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    const html = await response.text();
    const importMap = /<script type="importmap">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    const hash = createHash('sha256').update(importMap).digest('base64');
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      `script-src http://host.test/web/assets/ 'sha256-${hash}' http://host.test/web/bundles/${id}.js`,
      'style-src http://host.test/web/assets/',
      'font-src http://host.test/web/assets/',
      'img-src data:',
      "connect-src 'none'",
      "form-action 'none'",
      "base-uri 'none'",
      "object-src 'none'",
      'frame-ancestors http://host.test',
      'sandbox allow-scripts allow-forms',
    ]);
    const imports = (JSON.parse(importMap) as { imports: Record<string, string> }).imports;
    expect(Object.keys(imports).sort()).toEqual([...BROWSER_SHARED_MODULES].sort());
    expect(Object.keys(imports).sort()).toEqual([...SHARED_MODULES].sort());
    for (const url of Object.values(imports)) {
      expect(url).toMatch(/^http:\/\/host\.test\/web\/assets\/[\w-]+\.js$/);
      const asset = await host.app.request(url);
      expect(asset.status, url).toBe(200);
      expect(asset.headers.get('access-control-allow-origin')).toBe('*');
    }
    expect(html).toContain(`data-bundle="http://host.test/web/bundles/${id}.js"`);
    expect(html).toContain('data-widget="probe"');
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).toMatch(
      /<script type="module" src="http:\/\/host\.test\/web\/assets\/frame-bootstrap-[\w-]+\.js">/,
    );
  });

  it('answers an unknown version or widget with a 404 page that names the problem and runs nothing', async () => {
    const id = await versionOf('hostile-widget');
    const unknownWidget = await host.app.request(`/web/frames/${id}/nope`);
    expect(unknownWidget.status).toBe(404);
    expect(unknownWidget.headers.get('content-security-policy')).toContain("script-src 'none'");
    expect(await unknownWidget.text()).toContain(
      'declares no widget &quot;nope&quot;; its widgets are &quot;probe&quot;, &quot;thrower&quot;',
    );
    const unknownVersion = await host.app.request('/web/frames/v-nope/probe');
    expect(unknownVersion.status).toBe(404);
    expect(await unknownVersion.text()).toContain('No version &quot;v-nope&quot;');
    const noWidgets = await host.app.request(`/web/frames/${await versionOf('test-notes')}/probe`);
    expect(noWidgets.status).toBe(404);
  });

  it('serves no version the gate has not passed', async () => {
    const id = await versionOf('hostile-widget');
    await host.db.query("UPDATE versions SET status = 'rejected' WHERE id = $1", [id]);
    try {
      expect((await host.app.request(`/web/bundles/${id}.js`)).status).toBe(404);
      expect((await host.app.request(`/web/frames/${id}/probe`)).status).toBe(404);
    } finally {
      await host.db.query("UPDATE versions SET status = 'dev' WHERE id = $1", [id]);
    }
  });
});
