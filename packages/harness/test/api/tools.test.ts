import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessRegistryEntry } from '@platform/harness';
import { describe, expect, it } from 'vitest';
import { harness, send } from './_helpers.js';
import { toolsDefinition } from './_toolsIntegration.js';

const entry: HarnessRegistryEntry = {
  slug: 'tool-notes',
  name: 'Tool Notes',
  description: 'Notes for models',
  widgets: [],
  definition: toolsDefinition,
};
const tool = (name: string) => `/api/integrations/tool-notes/tools/${name}`;

describe('harness tools: GET tools', () => {
  it('lists the tools models are served, by effective name, with annotations, schema and whether they ask', async () => {
    const { handlers } = await harness([entry]);
    const answer = await send(handlers, 'GET', '/api/integrations/tool-notes/tools');
    expect(answer.status).toBe(200);
    const { tools, unserved } = answer.body.data;
    expect(tools.map((found: { name: string }) => found.name)).toEqual([
      'tool_notes_search_notes',
      'tool_notes_add_note',
      'tool_notes_delete_notes',
      'tool_notes_refuse',
      'tool_notes_crash',
    ]);
    expect(tools[0]).toMatchObject({
      toolName: 'search_notes',
      title: 'tool-notes: search_notes',
      effect: 'read',
      sensitivity: 'low',
      annotations: { readOnlyHint: true, openWorldHint: true },
      needsConfirmation: false,
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
    expect(tools[2]).toMatchObject({
      annotations: { readOnlyHint: false, destructiveHint: true },
      needsConfirmation: true,
    });
    expect(unserved).toEqual([
      { name: 'tool_notes_later', toolName: 'later', reason: expect.stringContaining('no handler') },
    ]);
  });

  it('answers an empty list for an entry without a definition', async () => {
    const { definition: _definition, ...bare } = entry;
    const { handlers } = await harness([bare]);
    const answer = await send(handlers, 'GET', '/api/integrations/tool-notes/tools');
    expect(answer.body).toEqual({ ok: true, data: { tools: [], unserved: [] } });
  });
});

describe('harness tools: POST tools/<name>', () => {
  it('runs a read at once on the variant state, with its logs and storage around it', async () => {
    const { handlers, lines } = await harness([entry]);
    const answer = await send(handlers, 'POST', tool('tool_notes_search_notes'), {
      body: { arguments: { text: 'x' } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      tool: 'tool_notes_search_notes',
      mode: 'fixtures',
      variant: 'default',
      result: { ok: true, data: { notes: [] } },
      storage: { before: { account: {}, user: {} }, after: { account: {}, user: {} } },
    });
    expect(answer.body.data.logs).toContainEqual({ level: 'info', message: 'searching 0 notes' });
    expect(lines).toContain('[harness] tool tool_notes_search_notes (fixtures, default) -> ok');
  });

  it('answers 409 confirmation_required with the host prompt for a write until the call says it was confirmed', async () => {
    const { handlers } = await harness([entry]);
    const asked = await send(handlers, 'POST', tool('tool_notes_add_note'), {
      body: { arguments: { title: 'Plan' } },
    });
    expect(asked.status).toBe(409);
    expect(asked.body.error).toMatchObject({
      code: 'confirmation_required',
      tool: 'tool_notes_add_note',
      prompt: 'tool-notes wants to run "add_note" with {"title":"Plan"}. It changes data. Run it?',
    });
    const declined = await send(handlers, 'POST', tool('tool_notes_add_note'), {
      body: { arguments: { title: 'Plan' }, confirmed: false },
    });
    expect(declined.status).toBe(409);
    const ran = await send(handlers, 'POST', tool('tool_notes_add_note'), {
      body: { arguments: { title: 'Plan' }, confirmed: true },
    });
    expect(ran.status).toBe(200);
    expect(ran.body.data).toMatchObject({
      result: { ok: true, data: { id: 'n1', title: 'Plan' } },
      storage: {
        before: { account: {} },
        after: { account: { 'cache/notes': [{ id: 'n1', title: 'Plan' }] } },
      },
    });
    // The variant's state is shared with the next call (and with actions and triggers).
    const found = await send(handlers, 'POST', tool('tool_notes_search_notes'), {
      body: { arguments: { text: 'Pl' } },
    });
    expect(found.body.data.result).toEqual({ ok: true, data: { notes: [{ id: 'n1', title: 'Plan' }] } });
    const destructive = await send(handlers, 'POST', tool('tool_notes_delete_notes'), { body: {} });
    expect(destructive.body.error.prompt).toContain('It destroys data and cannot be undone.');
  });

  it('answers invalid arguments, public refusals and bugs in the result, without running on bad input', async () => {
    const { handlers } = await harness([entry]);
    const invalid = await send(handlers, 'POST', tool('tool_notes_search_notes'), {
      body: { arguments: { text: 7 } },
    });
    expect(invalid.status).toBe(200);
    expect(invalid.body.data.result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(invalid.body.data.result.error.issues[0].path).toEqual(['text']);
    expect(invalid.body.data.logs).toEqual([]);
    const refused = await send(handlers, 'POST', tool('tool_notes_refuse'), { body: {} });
    expect(refused.body.data.result).toMatchObject({
      ok: false,
      error: {
        code: 'handler_error',
        message: 'Tool failed.',
        devError: { message: 'The notes service is in maintenance.' },
      },
    });
    const crashed = await send(handlers, 'POST', tool('tool_notes_crash'), { body: {} });
    expect(crashed.body.data.result.error.devError.message).toContain('postgres://');
  });

  it('names the tools when the name is not an effective one, and refuses unknown body fields', async () => {
    const { handlers } = await harness([entry]);
    const unknown = await send(handlers, 'POST', tool('search_notes'), { body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('tool_not_found');
    expect(unknown.body.error.message).toContain('tool_notes_search_notes');
    const later = await send(handlers, 'POST', tool('tool_notes_later'), { body: {} });
    expect(later.status).toBe(404);
    const extra = await send(handlers, 'POST', tool('tool_notes_search_notes'), { body: { confirm: true } });
    expect(extra.status).toBe(400);
    expect(extra.body.error.message).toContain('"arguments"');
  });

  it('keeps variants apart', async () => {
    const { handlers } = await harness([entry]);
    await send(handlers, 'POST', tool('tool_notes_add_note'), {
      body: { arguments: { title: 'Only in empty' }, confirmed: true, variant: 'empty' },
    });
    const inDefault = await send(handlers, 'POST', tool('tool_notes_search_notes'), {
      body: { arguments: { text: '' } },
    });
    expect(inDefault.body.data.result.data.notes).toEqual([]);
    const inEmpty = await send(handlers, 'POST', tool('tool_notes_search_notes'), {
      body: { arguments: { text: '' } },
      headers: { 'x-harness-variant': 'empty' },
    });
    expect(inEmpty.body.data.result.data.notes).toHaveLength(1);
  });
});

describe('harness tools: live mode', () => {
  it('runs on the live store, kept in .platform/live/store.json, and fixtures mode does not see it', async () => {
    const { handlers, projectDir } = await harness([{ ...entry, live: {} }]);
    const live = { 'x-harness-mode': 'live' };
    const ran = await send(handlers, 'POST', tool('tool_notes_add_note'), {
      body: { arguments: { title: 'Live note' }, confirmed: true },
      headers: live,
    });
    expect(ran.body.data).toMatchObject({ mode: 'live', result: { ok: true, data: { title: 'Live note' } } });
    const stored = JSON.parse(await readFile(join(projectDir, '.platform', 'live', 'store.json'), 'utf8'));
    expect(JSON.stringify(stored)).toContain('Live note');
    const inFixtures = await send(handlers, 'POST', tool('tool_notes_search_notes'), {
      body: { arguments: { text: 'Live' } },
    });
    expect(inFixtures.body.data).toMatchObject({ mode: 'fixtures', result: { data: { notes: [] } } });
    const inLive = await send(handlers, 'POST', tool('tool_notes_search_notes'), {
      body: { arguments: { text: 'Live' } },
      headers: live,
    });
    expect(inLive.body.data.result.data.notes).toHaveLength(1);
  });
});
