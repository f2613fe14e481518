// The browser tests' Chromium: Debian's build (scripts/ensure-chromium.sh installs it; .ci/run runs
// that) driven by playwright-core, screenshots into a folder the run keeps, and an axe-core check.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from './_chromium.js';
import { startDev, stop } from './_dev.js';

export { CHROMIUM, launchChromium };

import { REPO_ROOT } from './_helpers.js';

/** Where the browser tests leave their screenshots (git-ignored; CI keeps the folder). */
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-results', 'screenshots');

/**
 * Why the browser tests cannot run here, or undefined when they can. Under CI a missing browser is
 * a failure (`.ci/run` installs it), not a skip.
 */
export function browserMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `no Chromium at ${CHROMIUM}: run \`bash scripts/ensure-chromium.sh\` (or set PLATFORM_CHROMIUM)`;
  if (process.env.CI === 'true') throw new Error(`The browser tests need Chromium under CI: ${reason}.`);
  process.stderr.write(`[browser tests] skipped: ${reason}\n`);
  return reason;
}

/** Saves a full-page screenshot as `<name>.png` in SCREENSHOT_DIR. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js', { paths: [REPO_ROOT] }),
  'utf8',
);

/** One axe-core violation, trimmed to what a failing test should print. */
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
  /** What axe says is wrong with the first element (colours and ratio for contrast). */
  readonly summary: string;
}

/**
 * Runs axe-core (WCAG 2 A/AA rules) on the page as it is and returns the serious and critical
 * violations.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the driver, not injected as a <script>: a page's CSP allows no inline script.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<any> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return (result.violations as any[]).map((violation) => ({
      id: String(violation.id),
      impact: violation.impact ?? null,
      help: String(violation.help),
      targets: (violation.nodes as any[]).slice(0, 5).map((node) => String(node.target)),
      summary: String(violation.nodes[0]?.failureSummary ?? ''),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
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
