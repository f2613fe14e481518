// The web app as the host serves it: the shell on every page route under a strict CSP, signed-out
// browsers sent to /sign-in, hashed assets immutable and only the built ones, 503 when not built.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWebAppFiles } from '@platform/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUserTotp } from '../src/cli/admin.js';
import { listingIconRoutes } from '../src/routes/listingIcons.js';
import { webAppRoutes } from '../src/routes/webApp.js';
import { startTestHost, type TestHost } from './_host.js';

describe('the web app routes', () => {
  let host: TestHost;
  let cookie: string;
  beforeAll(async () => {
    host = await startTestHost({ projects: [] });
    const signIn = await host.app.request('/api/platform/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: host.email, password: 'correct horse' }),
    });
    expect(signIn.status).toBe(200);
    cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  });
  afterAll(() => host?.close());

  it('sends a signed-out browser to /sign-in with where it was as next', async () => {
    for (const path of ['/', '/marketplace?x=1', '/settings']) {
      const response = await host.app.request(path);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(`/sign-in?next=${encodeURIComponent(path)}`);
    }
  });

  it('serves the shell on every page under a CSP without inline code, never framed or cached', async () => {
    for (const path of ['/sign-in', '/', '/marketplace', '/marketplace/acme-notes', '/settings']) {
      const response = await host.app.request(path, { headers: { cookie } });
      expect(response.status, path).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      const html = await response.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  it('serves the built assets as immutable, and nothing else under /web/assets/', async () => {
    const files = readWebAppFiles();
    expect(files, 'the global setup builds the web app').toBeDefined();
    const script = /src="\/web\/assets\/([^"]+\.js)"/.exec(files?.shell ?? '')?.[1];
    expect(script).toBeDefined();
    const response = await host.app.request(`/web/assets/${script}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of ['/web/assets/nope.js', '/web/assets/..%2Findex.html', '/web/assets/.built']) {
      expect((await host.app.request(path)).status, path).toBe(404);
    }
  });

  it('says on GET /api/platform/mfa whether the user signs in with an authenticator code', async () => {
    const before = await (await host.call('/api/platform/mfa')).json();
    expect(before).toEqual({ ok: true, data: { totp: { enabled: false } } });
    await adminUserTotp({ dataDir: '', host, email: host.email });
    const after = await (await host.call('/api/platform/mfa')).json();
    expect(after).toEqual({ ok: true, data: { totp: { enabled: true } } });
    expect((await host.app.request('/api/platform/mfa')).status).toBe(401);
  });

  it('answers 503 saying how to build it when the web app is not built', async () => {
    const app = webAppRoutes({ dir: join(mkdtempSync(join(tmpdir(), 'web-')), 'app') });
    const response = await app.request('/sign-in');
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('npm run build');
  });
});

describe('listing icons', () => {
  it('serves a free icon by its bare name as SVG of this origin, and 404 for anything else', async () => {
    const app = listingIconRoutes();
    const icon = await app.request('/web/icons/note-sticky.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 \d+ \d+"/);
    // Brands and aliases are in the set too.
    expect((await app.request('/web/icons/github.svg')).status).toBe(200);
    for (const path of ['/web/icons/not-an-icon.svg', '/web/icons/note-sticky', '/web/icons/..%2F.svg']) {
      expect((await app.request(path)).status, path).toBe(404);
    }
  });
});
