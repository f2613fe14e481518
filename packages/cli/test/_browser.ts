// The browser tests' Chromium: Debian's build (scripts/ensure-chromium.sh installs it; .ci/run runs
// that) driven by playwright-core, screenshots into a folder the run keeps, and an axe-core check.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  type AxeViolation,
  browserMissing,
  CHROMIUM,
  launchChromium,
  seriousAxeViolations,
} from './_chromium.js';
import { startDev, stop } from './_dev.js';
import { REPO_ROOT } from './_helpers.js';

export { type AxeViolation, browserMissing, CHROMIUM, launchChromium, seriousAxeViolations };

/** Where the browser tests leave their screenshots (git-ignored; CI keeps the folder). */
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-results', 'screenshots');

/** Saves a full-page screenshot as `<name>.png` in SCREENSHOT_DIR. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * `platform dev` (the project's installed binary) serving a `platform init` project (slug `app`):
 * the index, the widget in each variant, the tile notice, the activation and triggers surfaces,
 * each screenshotted (`<name>-<surface>.png`) and free of serious axe violations and page errors;
 * the server stops with 0.
 */
export async function expectScaffoldSurfacesServed(
  app: string,
  platform: { readonly command: string; readonly env: Record<string, string> },
  name: string,
): Promise<void> {
  const dev = await startDev(app, platform);
  const browser = await launchChromium();
  const problems: string[] = [];
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const visit = async (path: string, shows: string, surface: string) => {
      await page.goto(new URL(path, dev.report.url).href);
      await page.getByText(shows).first().waitFor({ timeout: 60_000 });
      await check(surface);
    };
    const check = async (surface: string) => {
      await screenshot(page, `${name}-${surface}`);
      for (const violation of await seriousAxeViolations(page))
        problems.push(`${surface}: ${violation.id} (${violation.help}) at ${violation.targets.join(', ')}`);
    };
    await visit('', 'Integrations', 'index');
    await visit('app/widgets', 'No items yet.', 'widgets-default');
    for (const variant of ['empty', 'error'] as const) {
      await page.getByLabel('Variant').selectOption(variant);
      await page.getByText('No items yet.').first().waitFor();
      await check(`widgets-${variant}`);
    }
    await visit('app/tile', 'No marketplace tile is registered', 'tile');
    await visit('app/activation', 'Activation form', 'activation');
    await visit('app/triggers', 'Triggers', 'triggers');
  } finally {
    await browser.close();
    problems.push(
      ...[await stop(dev)].filter((code) => code !== 0).map((code) => `platform dev exited ${code}`),
    );
  }
  if (problems.length > 0) throw new Error(`${problems.join('\n')}\n${dev.stderr()}`);
}
