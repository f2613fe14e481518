// Widget frames in a real Chromium: the web app's WidgetFrame (bundled from
// packages/web/test/widgetFrameHarness.tsx and served on the host's origin under the web app's
// CSP) embeds the hostile-widget fixture's frames. The hostile widget tries the host page's DOM,
// the session API, another integration's routes and top navigation: all refused, while its own
// action works through the bridge, for the page's account. A widget that throws shows its error;
// a frame that never says ready shows "This widget did not load" while the page stays usable.
// Each state is screenshotted (test-results/screenshots/widgetFrames.browser.test.ts/) and checked
// by axe-core in the page and inside each frame.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_APP_CSP } from '../src/routes/webApp.js';
import { browserMissing, expectNoSeriousAxeViolations, useBrowser } from './_browser.js';
import { startTestHost, type TestHost } from './_host.js';
import { type LoopbackServer, serveOnLoopback } from './_nodeServer.js';

const noBrowser = browserMissing();
const HARNESS = fileURLToPath(new URL('../../web/test/widgetFrameHarness.tsx', import.meta.url));

describe.skipIf(noBrowser !== undefined)(
  `widget frames in Chromium${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
  () => {
    const chromium = useBrowser(import.meta.url);
    let host: TestHost;
    let server: LoopbackServer;
    let origin: string;
    let versionId: string;

    beforeAll(async () => {
      host = await startTestHost({ projects: ['hostile-widget', 'notes'] });
      const { rows } = await host.db.query(
        "SELECT id FROM versions WHERE integration_slug = 'hostile-widget'",
      );
      versionId = rows[0]!.id as string;
      const harness = await build({
        entryPoints: [HARNESS],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        jsx: 'automatic',
        define: { 'process.env.NODE_ENV': '"production"' },
        conditions: ['@platform/source'],
        write: false,
        logLevel: 'silent',
      });
      const script = harness.outputFiles[0]!.text;
      const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Widget frames</title>
<script type="module" src="/test-harness/frames.js"></script></head><body><div id="root"></div></body></html>`;
      const headers = { 'Content-Security-Policy': WEB_APP_CSP, 'Cache-Control': 'no-store' };
      server = await serveOnLoopback((request: Request) => {
        const { pathname } = new URL(request.url);
        if (pathname === '/test-harness/frames')
          return new Response(page, {
            headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' },
          });
        if (pathname === '/test-harness/frames.js')
          return new Response(script, { headers: { ...headers, 'Content-Type': 'text/javascript' } });
        return host.app.fetch(request);
      });
      origin = server.origin;
    }, 120_000);

    afterAll(async () => {
      await server?.close();
      await host?.close();
    });

    async function signedInPage(): Promise<Page> {
      const context = await chromium.browser().newContext({ viewport: { width: 1200, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${origin}/sign-in`);
      await page.getByLabel('Email').fill(host.email);
      await page.getByLabel('Password').fill('correct horse');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      return page;
    }

    const harnessUrl = (...frames: string[]) =>
      `${origin}/test-harness/frames?account=${encodeURIComponent(host.accountId)}${frames
        .map((frame) => `&frame=${encodeURIComponent(frame)}`)
        .join('')}`;

    async function frameOf(page: Page, widgetId: string): Promise<Frame> {
      const handle = await page.locator(`section[data-widget="${widgetId}"] iframe`).elementHandle();
      const frame = await handle?.contentFrame();
      if (!frame) throw new Error(`no frame for ${widgetId}`);
      return frame;
    }

    it('refuses everything the hostile widget tries but its own action, which runs for the page account', async () => {
      const page = await signedInPage();
      const navigations: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations.push(frame.url());
      });
      await page.goto(harnessUrl(`${versionId}:probe:hostile-widget`));
      const iframe = page.locator('section[data-widget="probe"] iframe');
      expect(await iframe.getAttribute('sandbox')).toBe('allow-scripts allow-forms');
      const frame = await frameOf(page, 'probe');
      const probe = (name: string) => frame.locator(`li[data-probe="${name}"]`);
      for (const name of [
        'parent-dom',
        'session-api',
        'other-slug',
        'platform-via-bridge',
        'top-navigation',
        'own-action',
      ]) {
        await probe(name).waitFor({ timeout: 20_000 });
      }
      const outcomes: Record<string, string | null> = {};
      for (const name of [
        'parent-dom',
        'session-api',
        'other-slug',
        'platform-via-bridge',
        'top-navigation',
        'own-action',
      ]) {
        outcomes[name] = await probe(name).getAttribute('data-outcome');
      }
      const details = await frame.locator('li[data-probe]').allTextContents();
      expect(outcomes, details.join('\n')).toEqual({
        'parent-dom': 'refused',
        'session-api': 'refused',
        'other-slug': 'refused',
        'platform-via-bridge': 'refused',
        'top-navigation': 'refused',
        'own-action': 'allowed',
      });
      // The action ran for the page's account, not the one the widget named.
      expect(await probe('own-action').textContent()).toContain(`"accountId":"${host.accountId}"`);
      expect(await probe('own-action').textContent()).toContain('"pong":"hello"');
      // The frame is sized to its content, and the page never left.
      expect(
        Number.parseInt((await iframe.getAttribute('style'))?.match(/height:\s*(\d+)px/)?.[1] ?? '0', 10),
      ).toBeGreaterThan(47);
      expect(page.url()).toBe(harnessUrl(`${versionId}:probe:hostile-widget`));
      expect(navigations.filter((url) => !url.includes('/test-harness/frames'))).toEqual([]);
      // The frame's document has an opaque origin.
      expect(await frame.evaluate(() => window.origin)).toBe('null');
      await chromium.screenshot(page, 'widget-frame-hostile');
      await expectNoSeriousAxeViolations(page, { frames: true, name: 'widget-frame-hostile' });
      await page.context().close();
    });

    it('shows a throwing widget error inside its frame, and a frame that never gets ready as not loaded', async () => {
      const page = await signedInPage();
      await page.goto(harnessUrl(`${versionId}:thrower:hostile-widget`, `v-unknown:missing:hostile-widget`));
      const thrower = await frameOf(page, 'thrower');
      await thrower.getByRole('alert').getByText('This widget failed to render').waitFor({ timeout: 20_000 });
      const missing = page.locator('section[data-widget="missing"]');
      await missing.getByRole('alert').getByText('This widget did not load').waitFor({ timeout: 30_000 });
      const button = page.getByRole('button', { name: 'Still usable' });
      await button.click();
      await page.getByRole('button', { name: 'Clicked' }).waitFor();
      await chromium.screenshot(page, 'widget-frame-errors');
      await expectNoSeriousAxeViolations(page, { frames: true, name: 'widget-frame-errors' });
      await page.context().close();
    });
  },
);
