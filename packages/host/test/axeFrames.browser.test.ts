// The browser tests' axe check (test/_browser.ts over packages/cli/test/_chromium.ts) itself: a
// violation inside a sandboxed frame (opaque origin, as a widget frame) is found only with
// `frames: true`, and a clean page with a clean frame passes.
import { describe, expect, it } from 'vitest';
import {
  browserMissing,
  expectNoSeriousAxeViolations,
  seriousAxeViolations,
  useBrowser,
} from './_browser.js';

const noBrowser = browserMissing();

const pageWith = (frameBody: string) =>
  `<!doctype html><html lang="en"><head><title>Axe frames</title></head><body><main><h1>Host page</h1>
<iframe title="A widget" sandbox="allow-scripts" srcdoc="${frameBody.replaceAll('"', '&quot;')}"></iframe></main></body></html>`;
const frameDocument = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Widget</title></head><body><main>${body}</main></body></html>`;

describe.skipIf(noBrowser !== undefined)(
  `the axe check in Chromium${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
  () => {
    const chromium = useBrowser(import.meta.url);

    it('finds a violation inside a sandboxed frame only when asked to look in frames', async () => {
      const page = await chromium.browser().newPage();
      await page.setContent(pageWith(frameDocument('<img src="missing.png">')));
      await page.frames()[1]!.waitForLoadState('load');
      expect(await seriousAxeViolations(page)).toEqual([]);
      const inFrames = await seriousAxeViolations(page, { frames: true });
      expect(inFrames.map((violation) => [violation.id, violation.frame])).toEqual([
        ['image-alt', 'about:srcdoc'],
      ]);
      await expect(expectNoSeriousAxeViolations(page, { frames: true })).rejects.toThrow(/image-alt/);
      await page.close();
    });

    it('passes a clean page with a clean frame', async () => {
      const page = await chromium.browser().newPage();
      await page.setContent(pageWith(frameDocument('<img src="missing.png" alt="A chart">')));
      await expectNoSeriousAxeViolations(page, { frames: true });
      await chromium.screenshot(page, 'clean');
      await page.close();
    });
  },
);
