// The widget chrome and the activation form in Chromium: every state in light, dark (by media query
// and by data-platform-theme) and forced colours at 1280 and 390 px (touch), laid out as the issue
// measured it, free of axe violations of any impact (menu open included), and pixel-compared with
// the committed baselines. Keyboard paths: menu, pin, collapse, refresh keeping focus.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from '../../../cli/test/_chromium.js';
import { KIT_URL, serveKit } from './_kitPage.js';
import { compareWithBaseline } from './_visual.js';

/** Why this file cannot run here (printed), or undefined. Under CI a missing browser fails instead. */
function browserMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `no Chromium at ${CHROMIUM}: run \`bash scripts/ensure-chromium.sh\` (or set PLATFORM_CHROMIUM)`;
  if (process.env.CI === 'true') throw new Error(`The browser tests need Chromium under CI: ${reason}.`);
  process.stderr.write(`[ui browser tests] skipped: ${reason}\n`);
  return reason;
}

const THEMES = {
  light: { colorScheme: 'light', forcedColors: 'none', attribute: undefined },
  'dark-media': { colorScheme: 'dark', forcedColors: 'none', attribute: undefined },
  // The OS says light; the page forces dark on its <main>.
  'dark-attribute': { colorScheme: 'light', forcedColors: 'none', attribute: 'dark' },
  forced: { colorScheme: 'light', forcedColors: 'active', attribute: undefined },
} as const;
type Theme = keyof typeof THEMES;

const WIDTHS = {
  1280: { height: 800, touch: false },
  390: { height: 844, touch: true },
  // The narrowest phones: checked for layout and axe, without baselines.
  320: { height: 640, touch: true },
} as const;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const missing = browserMissing();
let browser: Browser;

beforeAll(async () => {
  if (missing === undefined) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

async function openKit(
  theme: Theme,
  width: keyof typeof WIDTHS,
): Promise<{ context: BrowserContext; page: Page }> {
  const { colorScheme, forcedColors, attribute } = THEMES[theme];
  const { height, touch } = WIDTHS[width];
  const context = await browser.newContext({
    viewport: { width, height },
    deviceScaleFactor: 1,
    hasTouch: touch,
    colorScheme,
    forcedColors,
    // Stops the spinner and the skeleton's pulse, so screenshots are the same every run.
    reducedMotion: 'reduce',
  });
  await serveKit(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const query = new URLSearchParams({ 'acme-notes_oauth_error': 'denied' });
  if (attribute !== undefined) query.set('theme', attribute);
  await page.goto(`${KIT_URL}?${query}`);
  await page.getByText('Connected to Acme Workspace.').waitFor();
  await page.getByText('The connection couldn’t be checked', { exact: true }).waitFor();
  await page.evaluate(() => document.fonts.ready);
  expect(errors).toEqual([]);
  return { context, page };
}

interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly targets: string[];
}

/** Every axe-core violation, whatever its impact (best-practice rules included). */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<any> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    // A page axe could not look at would pass every rule it did not run.
    if (result.passes.length < 20) throw new Error(`axe ran only ${result.passes.length} passing rules`);
    return (result.violations as any[]).map(
      (violation): Violation => ({
        id: String(violation.id),
        impact: violation.impact ?? null,
        targets: (violation.nodes as any[]).slice(0, 4).map((node) => String(node.target)),
      }),
    );
  });
  return violations.map((v) => `axe ${v.id} (${v.impact}) at ${v.targets.join(', ')}`);
}

/** The layout facts the issue measured, each a sentence when it does not hold. */
async function layoutProblems(page: Page, theme: Theme, touch: boolean): Promise<string[]> {
  return page.evaluate(
    ({ theme, touch }) => {
      const problems: string[] = [];
      const box = (element: Element) => element.getBoundingClientRect();
      const widgets = [...document.querySelectorAll<HTMLElement>('.plt-widget')];
      const widget = (title: string) =>
        widgets.find((w) => w.querySelector('.plt-widget__title')?.textContent === title)!;

      const headerHeights = new Set(widgets.map((w) => box(w.querySelector('header')!).height));
      if (headerHeights.size !== 1) problems.push(`header heights differ: ${[...headerHeights].join(', ')}`);

      const collapsed = widget('Pipeline');
      if (box(collapsed).height > box(collapsed.querySelector('header')!).height + 2)
        problems.push(`the collapsed widget is ${box(collapsed).height}px tall, taller than its header`);

      const control = touch ? 44 : 32;
      for (const button of document.querySelectorAll('.plt-icon-button, .plt-button'))
        if (box(button).height < control)
          problems.push(
            `${button.getAttribute('aria-label') ?? button.textContent} is ${box(button).height}px tall, under ${control}px`,
          );

      for (const time of document.querySelectorAll('.plt-widget__health time'))
        if (box(time).height > 20) problems.push(`"${time.textContent}" wraps`);
      for (const button of document.querySelectorAll('.plt-oauth .plt-button')) {
        const card = box(button.closest('.kit-card')!);
        if (box(button).height > control + 2)
          problems.push(`"${button.textContent}" breaks inside its button`);
        if (box(button).right > card.right) problems.push(`"${button.textContent}" overflows its form`);
      }

      const long = widget('Notes shared with me from every Acme workspace').querySelector<HTMLElement>('h3')!;
      if (long.scrollWidth <= long.clientWidth)
        problems.push('the long title is not cut short in this layout');
      if (long.title !== long.textContent) problems.push('the cut-short title has no tooltip');

      const notes = widget('Notes');
      const ai = notes.querySelector('.plt-widget__ai svg');
      const content = notes.querySelector('.plt-widget__body li');
      const list = notes.querySelector('.plt-widget__body ul');
      if (ai === null || content === null || list === null)
        problems.push('the Notes widget lacks its AI footer or list');
      else {
        // In forced colours the button draws its border, and the border lines up instead.
        const start = box(theme === 'forced' ? ai.closest('button')! : ai).left;
        if (Math.abs(start - box(list).left) > 1)
          problems.push(`the AI footer starts at ${start}px, the content at ${box(list).left}px`);
      }

      if (notes.querySelector('.plt-data-state__meta') !== null)
        problems.push('a data-state toolbar sits in the body');

      const scheme = getComputedStyle(notes).colorScheme;
      const dark = theme === 'dark-media' || theme === 'dark-attribute';
      if (theme !== 'forced' && scheme !== (dark ? 'dark' : 'light'))
        problems.push(`color-scheme is "${scheme}"`);
      if (theme !== 'forced') {
        const luminance = (name: string) => {
          const probe = document.createElement('span');
          probe.style.color = `var(${name})`;
          notes.append(probe);
          const [r, g, b] = getComputedStyle(probe).color.match(/\d+/g)!.map(Number) as [
            number,
            number,
            number,
          ];
          probe.remove();
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const card = luminance('--plt-color-surface');
        const hover = luminance('--plt-color-hover');
        const active = luminance('--plt-color-active');
        const layered = dark ? card < hover && hover < active : card > hover && hover > active;
        if (!layered)
          problems.push(
            `hover/active do not layer ${dark ? 'above' : 'below'} the card: ${card}, ${hover}, ${active}`,
          );
      } else {
        const footer = notes.querySelector('footer')!;
        const dot = footer.querySelector('.plt-widget__health-dot')!;
        if (getComputedStyle(dot).backgroundColor === getComputedStyle(footer).backgroundColor)
          problems.push('the health dot vanishes in forced colours');
        const skeleton = document.querySelector('.plt-skeleton')!;
        if (getComputedStyle(skeleton).forcedColorAdjust !== 'none')
          problems.push('the skeleton vanishes in forced colours');
        const pinned = document.querySelector('[aria-pressed="true"]')!;
        if (
          getComputedStyle(pinned).backgroundColor ===
          getComputedStyle(pinned.closest('.plt-widget')!).backgroundColor
        )
          problems.push('the pinned state vanishes in forced colours');
      }
      return problems;
    },
    { theme, touch },
  );
}

const cases = (Object.keys(THEMES) as Theme[]).flatMap((theme) =>
  ([1280, 390] as const).map((width) => ({ theme, width })),
);

describe.skipIf(missing !== undefined)('@platform/ui in Chromium', () => {
  it.each(cases)(
    '$theme at $width px: layout, axe with the menu closed and open, screenshots',
    async ({ theme, width }) => {
      const { context, page } = await openKit(theme, width);
      const problems: string[] = [];
      try {
        problems.push(...(await layoutProblems(page, theme, WIDTHS[width].touch)));
        problems.push(...(await axeViolations(page)).map((p) => `menu closed: ${p}`));
        const shot = compareWithBaseline(await page.screenshot({ fullPage: true }), `kit-${theme}-${width}`);
        if (shot !== undefined) problems.push(shot);

        const notes = page.getByRole('region', { name: 'Notes', exact: true });
        await notes.getByRole('button', { name: 'More actions' }).focus();
        await page.keyboard.press('Enter');
        const menu = page.getByRole('menu');
        await menu.waitFor();
        problems.push(...(await axeViolations(page)).map((p) => `menu open: ${p}`));
        const [w, m] = [(await notes.boundingBox())!, (await menu.boundingBox())!];
        const clip = {
          x: Math.min(w.x, m.x),
          y: Math.min(w.y, m.y),
          width: Math.max(w.x + w.width, m.x + m.width) - Math.min(w.x, m.x),
          height: Math.max(w.y + w.height, m.y + m.height) - Math.min(w.y, m.y),
        };
        const open = compareWithBaseline(await page.screenshot({ clip }), `menu-${theme}-${width}`);
        if (open !== undefined) problems.push(open);
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    },
  );

  it('light and dark at 320 px: layout and axe', async () => {
    for (const theme of ['light', 'dark-media'] as const) {
      const { context, page } = await openKit(theme, 320);
      try {
        const problems = [...(await layoutProblems(page, theme, true)), ...(await axeViolations(page))];
        expect(problems, theme).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('keyboard: the menu opens, moves, closes on Escape and on Tab (moving on); rings only for keyboard focus', async () => {
    const { context, page } = await openKit('light', 1280);
    try {
      const notes = page.getByRole('region', { name: 'Notes', exact: true });
      const trigger = notes.getByRole('button', { name: 'More actions' });
      // Radix moves focus after the menu has gone (in a task of its own): wait for it to land.
      const focused = async () => {
        await page.waitForFunction(() => document.activeElement !== document.body);
        return page.evaluate(
          () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent,
        );
      };
      const outline = () => page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);

      await trigger.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menu').waitFor();
      expect(await focused()).toBe('Open in Acme');
      expect(await outline()).toBe('solid');
      await page.keyboard.press('ArrowDown');
      expect(await focused()).toBe('Disconnect');
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'detached' });
      expect(await focused()).toBe('More actions');

      await page.keyboard.press('Enter');
      await page.getByRole('menu').waitFor();
      await page.keyboard.press('Tab');
      await page.getByRole('menu').waitFor({ state: 'detached' });
      expect(await focused()).toBe('Collapse');

      await trigger.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menu').waitFor();
      await page.keyboard.press('Shift+Tab');
      await page.getByRole('menu').waitFor({ state: 'detached' });
      expect(await focused()).toBe('Pin');

      // The mouse highlights the item it is over, without the keyboard's focus ring.
      await trigger.click();
      await page.getByRole('menuitem', { name: 'Open in Acme' }).hover();
      expect(await focused()).toBe('Open in Acme');
      expect(await outline()).toBe('none');
    } finally {
      await context.close();
    }
  });

  it('keyboard: pin and collapse toggle, and collapse shrinks the widget to its header in the grid', async () => {
    const { context, page } = await openKit('light', 1280);
    try {
      const notes = page.getByRole('region', { name: 'Notes', exact: true });
      await notes.getByRole('button', { name: 'Pin' }).focus();
      await page.keyboard.press('Space');
      expect(await notes.getByRole('button', { name: 'Unpin' }).getAttribute('aria-pressed')).toBe('true');

      const collapse = notes.getByRole('button', { name: 'Collapse' });
      await collapse.focus();
      await page.keyboard.press('Enter');
      const expand = notes.getByRole('button', { name: 'Expand' });
      expect(await expand.getAttribute('aria-expanded')).toBe('false');
      const header = (await notes.locator('header').boundingBox())!;
      expect((await notes.boundingBox())!.height).toBeLessThanOrEqual(header.height + 2);
      await page.keyboard.press('Enter');
      expect(await notes.getByRole('button', { name: 'Collapse' }).getAttribute('aria-expanded')).toBe(
        'true',
      );
      expect((await notes.boundingBox())!.height).toBe(260);
    } finally {
      await context.close();
    }
  });

  it('keyboard: Refresh keeps focus while it runs and ignores presses until it ends', async () => {
    const { context, page } = await openKit('light', 1280);
    try {
      const notes = page.getByRole('region', { name: 'Notes', exact: true });
      const refresh = notes.getByRole('button', { name: 'Refresh' });
      await refresh.focus();
      await page.keyboard.press('Enter');
      expect(await refresh.getAttribute('aria-busy')).toBe('true');
      expect(await refresh.evaluate((button) => document.activeElement === button)).toBe(true);
      await page.keyboard.press('Enter');
      expect(await notes.getByTestId('refreshes').textContent()).toBe('1');
    } finally {
      await context.close();
    }
  });
});
