// The host's browser tests' one Chromium per file (Debian's build driven by playwright-core, with
// the flags of packages/cli/test/_chromium.ts), screenshots kept by the run under
// test-results/screenshots/<test file>/<name>.png, and the axe-core check of the page and each
// widget frame in it (the one implementation in packages/cli/test/_chromium.ts, which the CLI's
// browser tests use too).
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { browserMissing, launchChromium, seriousAxeViolations } from '../../cli/test/_chromium.js';

export { browserMissing, launchChromium, seriousAxeViolations };

const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');

/** Where the browser tests leave their screenshots (git-ignored; the run never deletes another file's). */
export const SCREENSHOT_ROOT = join(REPO_ROOT, 'test-results', 'screenshots');

/** One test file's Chromium and screenshot folder. */
export interface FileBrowser {
  /** The file's Chromium, launched in its `beforeAll`. */
  readonly browser: () => Browser;
  /** Where this file's screenshots go: test-results/screenshots/<test file>/. */
  readonly screenshotDir: string;
  /** Saves a full-page screenshot as `<name>.png` in this file's folder and answers its path. */
  screenshot(page: Page, name: string): Promise<string>;
}

/**
 * Launches one Chromium for the calling test file (in `beforeAll`, closed in `afterAll`) and empties
 * the file's screenshot folder, so what it holds after the run is this run's.
 * @example const chromium = useBrowser(import.meta.url); const page = await chromium.browser().newPage();
 */
export function useBrowser(testFileUrl: string): FileBrowser {
  const screenshotDir = join(SCREENSHOT_ROOT, basename(fileURLToPath(testFileUrl)));
  let browser: Browser | undefined;
  beforeAll(async () => {
    rmSync(screenshotDir, { recursive: true, force: true });
    mkdirSync(screenshotDir, { recursive: true });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return {
    browser() {
      if (browser === undefined) throw new Error('useBrowser: Chromium is launched in beforeAll');
      return browser;
    },
    screenshotDir,
    async screenshot(page, name) {
      const path = join(screenshotDir, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
  };
}

/**
 * Fails the test with axe-core's serious and critical violations (WCAG 2 A/AA) on the page, and
 * with `frames: true` inside each of its iframes too (each loaded first), where and why.
 * @example await expectNoSeriousAxeViolations(page, { frames: true });
 */
export async function expectNoSeriousAxeViolations(
  page: Page,
  options: { readonly frames?: boolean; readonly name?: string } = {},
): Promise<void> {
  if (options.frames === true)
    for (const frame of page.frames()) if (frame !== page.mainFrame()) await frame.waitForLoadState('load');
  const violations = await seriousAxeViolations(page, options);
  if (violations.length > 0)
    throw new Error(
      `axe on ${options.name ?? page.url()}: ${violations.length} serious or critical violation(s):\n${violations
        .map(
          (violation) =>
            `- ${violation.frame}: ${violation.id} [${violation.impact}] ${violation.help} at ${violation.targets.join(', ')}: ${violation.summary}`,
        )
        .join('\n')}`,
    );
}
