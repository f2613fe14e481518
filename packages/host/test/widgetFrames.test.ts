// Widget frames: install stores each version's browser bundle (the shared runtime left as bare
// imports), and the host serves it and the frame page that loads it.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
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
});
