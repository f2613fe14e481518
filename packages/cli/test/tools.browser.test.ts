// The harness's Tools surface in Chromium and its /mcp, on one `platform dev` (the built binary)
// serving a project whose integration declares tools: every tool with its effective name,
// annotations and schema, the form, Run, result, logs and storage; the host's confirmation as a
// dialog (Confirm runs, Cancel does not); axe on each state; then the official MCP clients (v2
// pinned to 2026-07-28 and the 2025-era sdk) listing and calling the same tools at /mcp.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launchChromium, screenshot, seriousAxeViolations } from './_browser.js';
import { buildHarnessBeforeAll, type Dev, devProject, startDev, stop } from './_dev.js';

const noBrowser = browserMissing();
const SLUG = 'dev-notes';

buildHarnessBeforeAll();

const INTEGRATION = `import { defineIntegration, PublicActionError } from '@platform/sdk/integration';
import { z } from 'zod';
import { NotesWidget } from './NotesWidget';

const Note = z.object({ id: z.string(), title: z.string() });

export default defineIntegration({
  slug: '${SLUG}',
  egress: ['https://notes.dev.example'],
  components: {
    widgets: [{ id: 'dev-notes-board', name: 'Notes', component: NotesWidget, icon: 'note-sticky' }],
  },
  storage: { account: { 'cache/notes': z.array(Note) } },
  tools: [
    {
      name: 'search_notes',
      description: 'Finds the notes whose title contains the text',
      input: z.object({ text: z.string(), limit: z.number().int().min(1).optional() }),
      handler: async (ctx, { text, limit }) => {
        const notes = (await ctx.storage.account.get('cache/notes')) ?? [];
        ctx.logger.info('searched ' + notes.length + ' notes');
        return { notes: notes.filter((note) => note.title.includes(text)).slice(0, limit ?? 50) };
      },
    },
    {
      name: 'add_note',
      description: 'Adds a note to the account',
      input: z.object({ title: z.string().min(1) }),
      handler: async (ctx, { title }) => {
        const notes = (await ctx.storage.account.get('cache/notes')) ?? [];
        const note = { id: 'n' + (notes.length + 1), title };
        await ctx.storage.account.set('cache/notes', [...notes, note]);
        ctx.logger.info('added ' + note.id);
        return note;
      },
    },
    {
      name: 'delete_notes',
      description: 'Deletes every note of the account',
      handler: async (ctx) => {
        const notes = (await ctx.storage.account.get('cache/notes')) ?? [];
        await ctx.storage.account.delete('cache/notes');
        return { deleted: notes.length };
      },
    },
    {
      name: 'refuse',
      description: 'Always refuses',
      handler: () => Promise.reject(new PublicActionError('The notes service is in maintenance.')),
    },
  ],
  proposes: {
    tools: {
      search_notes: { effect: 'read', sensitivity: 'low' },
      add_note: { effect: 'write', sensitivity: 'low' },
      delete_notes: { effect: 'destructive', sensitivity: 'high' },
      refuse: { effect: 'read', sensitivity: 'low' },
    },
  },
});
`;

describe.skipIf(noBrowser !== undefined)(
  `the Tools surface in Chromium and /mcp of platform dev${noBrowser === undefined ? '' : ` (skipped: ${noBrowser})`}`,
  () => {
    let dev: Dev;
    let browser: Browser;
    const pageErrors: string[] = [];
    const opened: { close(): Promise<void> }[] = [];

    beforeAll(async () => {
      const project = devProject();
      writeFileSync(join(project, 'src', 'dev-notes', 'integration.ts'), INTEGRATION);
      dev = await startDev(project);
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await Promise.all(opened.map((client) => client.close().catch(() => {})));
      await browser?.close();
      if (dev !== undefined) expect(await stop(dev)).toBe(0);
      expect(pageErrors).toEqual([]);
    });

    async function check(page: Page, name: string): Promise<void> {
      await screenshot(page, `tools-${name}`);
      expect(await seriousAxeViolations(page), name).toEqual([]);
    }

    const card = (page: Page, name: string) =>
      page.getByRole('article').filter({ has: page.getByRole('heading', { name, exact: true }) });

    it('lists every tool with its effective name, annotations and schema; runs a read at once', async () => {
      const page = await browser.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(new URL(`${SLUG}/widgets`, dev.report.url).href);
      await page.getByRole('navigation', { name: 'Surfaces' }).getByRole('link', { name: 'Tools' }).click();
      await page.getByRole('heading', { level: 2, name: 'Tools' }).waitFor({ timeout: 60_000 });
      await page.getByRole('heading', { name: 'dev_notes_search_notes' }).waitFor({ timeout: 60_000 });
      for (const name of ['dev_notes_add_note', 'dev_notes_delete_notes', 'dev_notes_refuse'])
        await page.getByRole('heading', { name, exact: true }).waitFor();
      expect(await page.textContent('body')).toContain('/mcp');
      const search = card(page, 'dev_notes_search_notes');
      const annotations = search.getByRole('definition');
      expect(await annotations.allTextContents()).toEqual(['search_notes', 'true', 'true']);
      expect(await search.getByText('runs without asking').count()).toBe(1);
      await search.getByText('JSON Schema of dev_notes_search_notes').click();
      expect(JSON.parse((await search.getByTestId('tool-schema').textContent()) ?? '')).toMatchObject({
        type: 'object',
        required: ['text'],
      });
      await check(page, 'list');

      await search.getByLabel('text', { exact: true }).fill('');
      await search.getByLabel('limit (optional)').fill('5');
      await search.getByRole('button', { name: 'Run dev_notes_search_notes' }).click();
      const result = search.getByRole('region', { name: 'Result of dev_notes_search_notes' });
      await result.getByText('Tool succeeded').waitFor();
      expect(JSON.parse((await result.getByTestId('tool-result').textContent()) ?? '')).toEqual({
        notes: [],
      });
      await result.getByText('searched 0 notes').waitFor();
      await check(page, 'read-result');
      await page.close();
    }, 120_000);

    it('asks before a write in a dialog: Cancel does not run it, Confirm does, and storage shows the change', async () => {
      const page = await browser.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(new URL(`${SLUG}/tools`, dev.report.url).href);
      const add = card(page, 'dev_notes_add_note');
      await add.waitFor({ timeout: 60_000 });
      expect(await add.getByText('asks the person first').count()).toBe(1);
      await add.getByLabel('title').fill('From the surface');
      await add.getByRole('button', { name: 'Run dev_notes_add_note' }).click();
      const dialog = page.getByRole('dialog', { name: 'Run dev_notes_add_note?' });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(
        'dev-notes wants to run "add_note" with {"title":"From the surface"}. It changes data. Run it?',
      );
      await check(page, 'confirm-dialog');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await add.getByText('Cancelled, not run').waitFor();
      expect(await dialog.count()).toBe(0);

      await add.getByRole('button', { name: 'Run dev_notes_add_note' }).click();
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      const result = add.getByRole('region', { name: 'Result of dev_notes_add_note' });
      await result.getByText('Tool succeeded').waitFor();
      expect(JSON.parse((await result.getByTestId('tool-result').textContent()) ?? '')).toEqual({
        id: 'n1',
        title: 'From the surface',
      });
      expect(JSON.parse((await result.getByTestId('storage-before').textContent()) ?? '')).toEqual({
        account: {},
        user: {},
      });
      expect(JSON.parse((await result.getByTestId('storage-after').textContent()) ?? '')).toEqual({
        account: { 'cache/notes': [{ id: 'n1', title: 'From the surface' }] },
        user: {},
      });
      await result.getByText('added n1').waitFor();
      await check(page, 'write-result');

      // A destructive tool says it cannot be undone; a refusal shows as a failed call.
      const remove = card(page, 'dev_notes_delete_notes');
      await remove.getByRole('button', { name: 'Run dev_notes_delete_notes' }).click();
      expect(await page.getByRole('dialog').textContent()).toContain('cannot be undone');
      await page.keyboard.press('Escape');
      await remove.getByText('Cancelled, not run').waitFor();
      const refuse = card(page, 'dev_notes_refuse');
      await refuse.getByRole('button', { name: 'Run dev_notes_refuse' }).click();
      await refuse.getByText('Tool failed: handler_error').waitFor();
      await refuse.getByText('The notes service is in maintenance.', { exact: true }).waitFor();
      await check(page, 'failed-result');
      await page.close();
    }, 120_000);

    it('serves the same tools at /mcp to the official clients, confirmation by elicitation included', async () => {
      const url = new URL('mcp', dev.report.url);
      const asked: string[] = [];
      const modern = new Client(
        { name: 'test-assistant', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      modern.setRequestHandler('elicitation/create', async (request) => {
        asked.push((request.params as { message: string }).message);
        return { action: 'accept', content: { confirm: true } };
      });
      await modern.connect(new StreamableHTTPClientTransport(url));
      opened.push(modern);
      const { tools } = await modern.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'dev_notes_add_note',
        'dev_notes_delete_notes',
        'dev_notes_refuse',
        'dev_notes_search_notes',
      ]);
      expect(tools[0]?.annotations).toEqual({
        readOnlyHint: false,
        destructiveHint: false,
        openWorldHint: true,
      });
      const added = await modern.callTool({
        name: 'dev_notes_add_note',
        arguments: { title: 'From a model' },
      });
      expect(asked).toEqual([
        'dev-notes wants to run "add_note" with {"title":"From a model"}. It changes data. Run it?',
      ]);
      expect(added.structuredContent).toEqual({ id: 'n2', title: 'From a model' });

      const legacy = new LegacyClient(
        { name: 'test-assistant-2025', version: '1.0.0' },
        { capabilities: { elicitation: {} } },
      );
      legacy.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
      await legacy.connect(new LegacyTransport(url));
      opened.push(legacy);
      const declined = await legacy.callTool({ name: 'dev_notes_delete_notes', arguments: {} });
      expect(declined.isError).toBe(true);
      // The page's state and the model's are one: the surface's note and the model's are both there.
      const found = await legacy.callTool({ name: 'dev_notes_search_notes', arguments: { text: 'From' } });
      expect(found.structuredContent).toEqual({
        notes: [
          { id: 'n1', title: 'From the surface' },
          { id: 'n2', title: 'From a model' },
        ],
      });
    }, 120_000);
  },
);
