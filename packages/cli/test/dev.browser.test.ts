// The harness shell in a real Chromium: `platform dev` (the built binary) on a copy of
// examples/acme-notes, every surface screenshotted into test-results/screenshots/ and checked
// with axe-core (no serious or critical WCAG A/AA violation).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, screenshot, seriousAxeViolations } from './_browser.js';
import { buildHarnessBeforeAll, type Dev, devProject, startDev, stop } from './_dev.js';
import { REPO_ROOT } from './_helpers.js';

const EXAMPLE = join(REPO_ROOT, 'examples', 'acme-notes');
const noBrowser = browserMissing();

buildHarnessBeforeAll();

describe.skipIf(noBrowser !== undefined)(
  `the harness shell in Chromium on examples/acme-notes${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
  () => {
    let project: string;
    let dev: Dev;
    let browser: Browser;
    let context: BrowserContext;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      project = devProject('installed', EXAMPLE);
      // The example extends the repository's base tsconfig by a relative path; the copy points at it.
      const tsconfig = join(project, 'tsconfig.json');
      const config = JSON.parse(readFileSync(tsconfig, 'utf8')) as { extends: string };
      config.extends = join(EXAMPLE, config.extends);
      writeFileSync(tsconfig, JSON.stringify(config, null, 2));
      dev = await startDev(project);
      browser = await launchChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      if (dev !== undefined) expect(await stop(dev)).toBe(0);
    });

    const url = (path: string) => new URL(path.replace(/^\//, ''), dev.report.url).href;

    async function open(path: string): Promise<Page> {
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(`${path}: ${error.message}`));
      await page.goto(url(path));
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 60_000 });
      return page;
    }

    async function check(page: Page, name: string): Promise<void> {
      await screenshot(page, `acme-notes-${name}`);
      expect(await seriousAxeViolations(page), name).toEqual([]);
    }

    const variant = (page: Page, value: 'default' | 'empty' | 'error') =>
      page.getByLabel('Variant').selectOption(value);

    it('index: every entry with its name, description and surfaces', async () => {
      const page = await open('/');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Integrations');
      await page.getByRole('link', { name: 'Acme Notes' }).first().waitFor();
      expect(await page.textContent('body')).toContain('synced nightly');
      await check(page, 'index');
      await page.close();
    });

    it('widgets: both widgets render in each variant, answered by the variant fixtures', async () => {
      const page = await open('/acme-notes/widgets');
      await page.getByText('Plan the launch').first().waitFor({ timeout: 30_000 });
      await check(page, 'widgets-default');

      await variant(page, 'empty');
      await page.getByText('No recent notes.').first().waitFor();
      await check(page, 'widgets-empty');

      await variant(page, 'error');
      await page.getByRole('alert').filter({ hasText: '503' }).first().waitFor();
      await check(page, 'widgets-error');

      // The request log names the fixture that answered the vendor request.
      const log = page.getByRole('region', { name: 'Request log' });
      expect(await log.textContent()).toContain('/v1/notes');
      await page.close();
    });

    it('actions in fixtures mode: the result on screen, invalid_input with its issues, handler_error with devError', async () => {
      const page = await open('/acme-notes/widgets/acme-notes-board');
      await page.getByText('No notes yet. Add one, or sync Acme Notes.').first().waitFor({ timeout: 30_000 });
      await page.getByLabel('Title').fill('Buy milk');
      await page.getByRole('button', { name: 'Add note' }).click();
      await page.getByText('Buy milk (added here)').first().waitFor();
      expect(await page.getByRole('status').allTextContents()).toContain('Added “Buy milk” to inbox.');
      await check(page, 'action-added');

      await page.getByLabel('Title').fill('   ');
      await page.getByRole('button', { name: 'Add note' }).click();
      const invalid = page.getByRole('alert').filter({ hasText: 'invalid_input' }).first();
      await invalid.waitFor();
      expect(await invalid.textContent()).toMatch(/title: /);
      await check(page, 'action-invalid-input');

      // The sync handler's ctx.fetch is answered on the server by the variant's fixture, and the
      // request log lists that hop under the action's own line.
      await page.getByRole('button', { name: 'Sync now' }).click();
      await page
        .getByText(/Synced \d+ notes?/)
        .first()
        .waitFor({ timeout: 30_000 });
      const log = page.getByRole('region', { name: 'Request log' });
      await log.getByText('ctx.fetch of sync-notes').first().waitFor();
      expect(await log.textContent()).toMatch(/ctx\.fetch of sync-notes: GET https:\/\/\S+\/v1\/notes/);

      // The error variant's vendor answers 503: the sync handler throws, the harness shows devError.
      await variant(page, 'error');
      await page.getByRole('button', { name: 'Sync now' }).click();
      const failed = page.getByRole('alert').filter({ hasText: 'handler_error' }).first();
      await failed.waitFor({ timeout: 30_000 });
      expect(await failed.textContent()).toContain('Handler error (shown by the harness only)');
      expect(await failed.textContent()).toMatch(/Stack trace/);
      await check(page, 'action-handler-error');
      await page.close();
    }, 120_000);

    it('a request no fixture answers is refused, and the request log shows the fixture literal to add', async () => {
      const config = join(project, 'harness.config.ts');
      const source = readFileSync(config, 'utf8');
      const emptyFixture = 'empty: [{ request: listNotes, response: { notes: [] } }],';
      expect(source).toContain(emptyFixture);
      writeFileSync(config, source.replace(emptyFixture, 'empty: [],'));
      try {
        const page = await open('/acme-notes/widgets/acme-notes-recent');
        await variant(page, 'empty');
        const log = page.getByRole('region', { name: 'Request log' });
        const refusal = log.getByText('Add this fixture to fixtures.empty:').first();
        await refusal.waitFor({ timeout: 30_000 });
        expect(await log.textContent()).toMatch(/GET https:\/\/[^ ]+\/v1\/notes/);
        await check(page, 'refused-fixture');
        await page.close();
      } finally {
        writeFileSync(config, source);
      }
    }, 120_000);

    it('one widget on its own page', async () => {
      const page = await open('/acme-notes/widgets/acme-notes-recent');
      await page.getByText('Plan the launch').first().waitFor({ timeout: 30_000 });
      await check(page, 'widget-recent');
      await page.close();
    });

    it('marketplace tile surface', async () => {
      const page = await open('/acme-notes/tile');
      await page.getByRole('heading', { name: 'Marketplace tile' }).waitFor();
      await check(page, 'tile');
      await page.close();
    });

    it('activation surface: setup notes and the connected state per variant', async () => {
      const page = await open('/acme-notes/activation');
      await page.getByText('Register the callback URL').first().waitFor();
      await page.getByText('Connected', { exact: true }).first().waitFor();
      await check(page, 'activation');
      await variant(page, 'empty');
      await page.getByText('Not connected', { exact: true }).first().waitFor();
      await page.close();
    });

    it('triggers: a signed webhook and a schedule at a virtual time, with result, logs and storage', async () => {
      const page = await open('/acme-notes/triggers');
      const scheme = page.getByLabel('Signature scheme of note-changed');
      await scheme.waitFor();
      expect(await scheme.textContent()).toMatch(/sha256/i);
      await check(page, 'triggers');

      await page.getByRole('button', { name: 'Fire note-changed' }).click();
      const webhookResult = page.getByRole('region', { name: 'Result of note-changed' });
      await webhookResult.waitFor({ timeout: 30_000 });
      expect(await webhookResult.textContent()).toMatch(/ok|delivered|200/i);

      const schedules = await page.getByRole('button', { name: /^Fire / }).allTextContents();
      const schedule = schedules
        .map((name) => name.replace(/^Fire /, ''))
        .find((id) => id !== 'note-changed');
      expect(schedule, `a schedule besides the webhook in ${schedules.join(', ')}`).toBeDefined();
      const times = page.getByRole('list', { name: `Next fire times of ${schedule}` });
      expect(await times.getByRole('listitem').count()).toBe(5);
      await page.getByLabel(`Virtual time of ${schedule} (UTC)`).fill('2026-03-01T02:00');
      await page.getByRole('button', { name: `Fire ${schedule}` }).click();
      const scheduleResult = page.getByRole('region', { name: `Result of ${schedule}` });
      await scheduleResult.waitFor({ timeout: 30_000 });
      await check(page, 'triggers-fired');
      await page.close();
    }, 120_000);

    it('live confirmation: decline sends nothing, accept is remembered across a reload, a new tab asks again', async () => {
      const dialogs: string[] = [];
      let answer: 'accept' | 'dismiss' = 'dismiss';
      const listedLive = () => (dev.stderr().match(/actions\/list-notes\S* \(live, /g) ?? []).length;
      const page = await open('/acme-notes/widgets');
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void (answer === 'accept' ? dialog.accept() : dialog.dismiss());
      });
      await page.getByText('Plan the launch').first().waitFor({ timeout: 30_000 });
      const before = listedLive();

      // The board lists notes through an action: in live mode that is the first live call.
      await page.getByLabel('Data mode').selectOption('live');
      await page.getByRole('alert').filter({ hasText: 'Could not load the notes' }).first().waitFor();
      expect(dialogs).toHaveLength(1);
      expect(dialogs[0]).toMatch(/live/i);
      expect(listedLive()).toBe(before);
      await screenshot(page, 'acme-notes-live-declined');

      answer = 'accept';
      await page.getByRole('button', { name: 'Try again' }).first().click();
      await page.getByText('No notes yet. Add one, or sync Acme Notes.').first().waitFor({ timeout: 30_000 });
      expect(dialogs).toHaveLength(2);
      expect(listedLive()).toBe(before + 1);

      // A reload keeps the tab's toolbar (live) and its confirmation: no prompt, the call is sent.
      await page.reload();
      await page.getByText('No notes yet. Add one, or sync Acme Notes.').first().waitFor({ timeout: 60_000 });
      expect(await page.getByLabel('Data mode').inputValue()).toBe('live');
      expect(dialogs).toHaveLength(2);
      expect(listedLive()).toBe(before + 2);
      await check(page, 'widgets-live');
      await page.close();

      // A new tab is a new session: it opens on fixtures and asks again when switched to live.
      const tab = await open('/acme-notes/widgets');
      tab.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.accept();
      });
      expect(await tab.getByLabel('Data mode').inputValue()).toBe('fixtures');
      await tab.getByLabel('Data mode').selectOption('live');
      await tab.getByText('No notes yet. Add one, or sync Acme Notes.').first().waitFor({ timeout: 30_000 });
      expect(dialogs).toHaveLength(3);
      await tab.close();
    }, 120_000);

    it('refuses a foreign Host: the browser reaches the same server under another name and gets 403', async () => {
      const port = new URL(dev.report.url).port;
      const other = await launchChromium(['--host-resolver-rules=MAP evil.example 127.0.0.1']);
      try {
        const page = await other.newPage();
        const response = await page.goto(`http://evil.example:${port}/`);
        expect(response?.status()).toBe(403);
        expect(await page.textContent('body')).toMatch(/loopback/i);
        await screenshot(page, 'acme-notes-foreign-host');
      } finally {
        await other.close();
      }
    });

    it('HMR: a widget edit shows without a reload, the toolbar state kept', async () => {
      const page = await open('/acme-notes/widgets');
      await page.getByText('Plan the launch').first().waitFor({ timeout: 30_000 });
      await variant(page, 'empty');
      await page.getByText('No recent notes.').first().waitFor();
      const file = join(project, 'src', 'acme-notes', 'widgets', 'AcmeNotesRecent.tsx');
      const source = readFileSync(file, 'utf8');
      expect(source).toContain('No recent notes.');
      writeFileSync(file, source.replace('No recent notes.', 'Nothing recent (edited).'));
      await page.getByText('Nothing recent (edited).').first().waitFor({ timeout: 60_000 });
      expect(await page.getByLabel('Variant').inputValue()).toBe('empty');
      writeFileSync(file, source);
      await page.close();
    }, 120_000);

    // A broken config or definition shows the dev server's failure in the page (a modal dialog that
    // Esc dismisses), and the page returns by itself once the save fixes it. Its own page: the
    // broken config throws in the page too, which the uncaught-error check below must not count.
    async function expectOverlayAndRecovery(file: string, breakIt: (source: string) => string, says: RegExp) {
      const path = join(project, file);
      const source = readFileSync(path, 'utf8');
      const page = await context.newPage();
      await page.goto(url('/'));
      await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor({ timeout: 60_000 });
      try {
        writeFileSync(path, breakIt(source));
        const dialog = page.getByRole('dialog', { name: 'harness.config.ts failed to load' });
        await dialog.waitFor({ timeout: 60_000 });
        expect(await dialog.textContent()).toMatch(says);
        expect(await dialog.textContent()).toContain(`Fix the`);
        await check(page, `overlay-${file.replace(/\W+/g, '-')}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
      } finally {
        writeFileSync(path, source);
      }
      await page.getByRole('heading', { name: 'Integrations', level: 1 }).waitFor({ timeout: 60_000 });
      await page.getByRole('link', { name: 'Acme Notes' }).first().waitFor({ timeout: 60_000 });
      expect(await page.getByRole('dialog').count()).toBe(0);
      await page.close();
    }

    it('a harness.config.ts error shows in the page, and the page recovers on the fixing save', async () => {
      await expectOverlayAndRecovery(
        'harness.config.ts',
        (source) => source.replace("slug: 'acme-notes'", "slug: 'acme notes'"),
        /"acme notes" is not a valid harness slug/,
      );
    }, 180_000);

    it('a definition error shows in the page with the file and the findings, and the page recovers', async () => {
      await expectOverlayAndRecovery(
        join('src', 'acme-notes', 'integration.ts'),
        (source) => source.replace("slug: 'acme-notes'", "slug: 'Acme Notes'"),
        /src\/acme-notes\/integration\.ts[\s\S]*definition\.schema/,
      );
    }, 180_000);

    it('no page threw an uncaught error', () => {
      expect(pageErrors).toEqual([]);
    });
  },
);
