import { defineIntegration, PublicActionError } from '@platform/sdk/integration';
import {
  describeDefinition,
  invokeTool,
  readManifest,
  readToolEnvelope,
  TOOL_FAILED_MESSAGE,
  TOOL_MESSAGE_MAX_CHARS,
} from '@platform/sdk/runtime';
import { createMockContext, invokeTool as invokeToolFromTesting } from '@platform/sdk/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';

const definition = defineIntegration({
  slug: 'acme-notes',
  storage: { account: { 'cache/notes': z.array(z.object({ title: z.string() })) } },
  tools: [
    {
      name: 'add_note',
      description: 'Add a note',
      input: z.object({ title: z.string().min(1) }),
      handler: async (ctx, { title }) => {
        const notes = (await ctx.storage.account.get('cache/notes')) ?? [];
        await ctx.storage.account.set('cache/notes', [...notes, { title }]);
        return { count: notes.length + 1 };
      },
    },
    {
      name: 'search_notes',
      description: 'Search notes (zod 3 input)',
      input: z3.object({ text: z3.string(), limit: z3.number().int().optional() }),
      handler: async (ctx, { text }) => {
        const notes = (await ctx.storage.account.get('cache/notes')) ?? [];
        return notes.filter((note) => note.title.includes(text));
      },
    },
    { name: 'count', description: 'No input', handler: () => 3 },
    {
      name: 'refuse',
      description: 'Public refusal',
      handler: () => Promise.reject(new PublicActionError('Not today.')),
    },
    { name: 'crash', description: 'A bug', handler: () => Promise.reject(new Error('secret internals')) },
    { name: 'cyclic', description: 'Answers what JSON cannot carry', handler: () => 10n },
    { name: 'later', description: 'Declared without a handler' },
    {
      name: 'stamp',
      description: 'Declares its output (zod 4)',
      output: z.object({ at: z.string(), n: z.number().default(1) }),
      handler: () => ({ at: 'noon' }),
    },
    {
      name: 'stamp_old',
      description: 'Declares its output (zod 3)',
      output: z3.object({ at: z3.string() }),
      handler: () => ({ at: 'dawn' }),
    },
    {
      name: 'wrong',
      description: 'Answers what its output refuses',
      output: z.object({ n: z.number() }),
      // @ts-expect-error the handler's result is typed by the output schema
      handler: () => ({ n: 'many' }),
    },
    { name: 'listed', description: 'A list as output', output: z.array(z.string()), handler: () => ['a'] },
  ],
  proposes: {
    tools: {
      add_note: { effect: 'write', sensitivity: 'low' },
      search_notes: { effect: 'read', sensitivity: 'low' },
    },
  },
});

const production = { mode: 'production' } as const;

describe('invokeTool', () => {
  it("validates the arguments with the tool's schema, runs the handler with ctx and answers JSON", async () => {
    const ctx = createMockContext(definition, {
      storage: { account: { 'cache/notes': [{ title: 'first' }] } },
    });
    await expect(invokeTool(definition, 'add_note', { title: 'second' }, ctx, production)).resolves.toEqual({
      ok: true,
      data: { count: 2 },
    });
    await expect(invokeTool(definition, 'search_notes', { text: 'sec' }, ctx, production)).resolves.toEqual({
      ok: true,
      data: [{ title: 'second' }],
    });
    await expect(invokeTool(definition, 'count', undefined, ctx, production)).resolves.toEqual({
      ok: true,
      data: 3,
    });
  });

  it('refuses arguments the schema refuses, naming the fields, without running the handler', async () => {
    const ctx = createMockContext(definition);
    const envelope = await invokeTool(definition, 'add_note', { title: '' }, ctx, production);
    expect(envelope.ok).toBe(false);
    if (envelope.ok) return;
    expect(envelope.error.code).toBe('invalid_input');
    expect(envelope.error.message).toMatch(/^The input does not match the tool's schema: title: /);
    expect(await ctx.storage.account.get('cache/notes')).toBeUndefined();
  });

  it('answers tool_not_found for an unknown tool and for one without a handler, naming the callable ones', async () => {
    const ctx = createMockContext(definition);
    for (const name of ['nope', 'later', 'toString']) {
      const envelope = await invokeTool(definition, name, {}, ctx, production);
      expect(envelope).toMatchObject({ ok: false, error: { code: 'tool_not_found' } });
      if (!envelope.ok)
        expect(envelope.error.message).toContain('Tools with handlers: add_note, search_notes, count');
    }
  });

  it('passes a PublicActionError message through as public, and hides any other failure', async () => {
    const ctx = createMockContext(definition);
    await expect(invokeTool(definition, 'refuse', {}, ctx, production)).resolves.toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Not today.', isPublic: true },
    });
    const crash = await invokeTool(definition, 'crash', {}, ctx, production);
    expect(crash).toEqual({
      ok: false,
      error: { code: 'handler_error', message: TOOL_FAILED_MESSAGE, isPublic: false },
    });
    expect(JSON.stringify(crash)).not.toContain('secret internals');
    await expect(invokeTool(definition, 'cyclic', {}, ctx, production)).resolves.toMatchObject({
      ok: false,
      error: { code: 'handler_error', message: TOOL_FAILED_MESSAGE },
    });
    const harness = await invokeTool(definition, 'crash', {}, ctx, { mode: 'harness' });
    expect(harness).toMatchObject({ ok: false, error: { devError: { message: 'secret internals' } } });
  });

  it("checks the result against a declared output, answering the schema's value, and hides a mismatch", async () => {
    const ctx = createMockContext(definition);
    await expect(invokeTool(definition, 'stamp', {}, ctx, production)).resolves.toEqual({
      ok: true,
      data: { at: 'noon', n: 1 },
    });
    await expect(invokeTool(definition, 'wrong', {}, ctx, production)).resolves.toEqual({
      ok: false,
      error: { code: 'handler_error', message: TOOL_FAILED_MESSAGE, isPublic: false },
    });
    const harness = await invokeTool(definition, 'wrong', {}, ctx, { mode: 'harness' });
    expect(harness).toMatchObject({
      ok: false,
      error: { devError: { message: expect.stringContaining('output schema') } },
    });
  });

  it('is what @platform/sdk/testing offers for tool tests', () => {
    expect(invokeToolFromTesting).toBe(invokeTool);
  });
});

describe('the manifest of tools', () => {
  it("states each tool's handler and input JSON Schema, from zod 4 and zod 3 alike, and the host reads it back", () => {
    const manifest = describeDefinition(definition);
    const byName = Object.fromEntries(manifest.tools.map((tool) => [tool.name, tool]));
    expect(byName.add_note).toMatchObject({
      hasHandler: true,
      inputSchema: {
        type: 'object',
        properties: { title: { type: 'string', minLength: 1 } },
        required: ['title'],
      },
    });
    expect(byName.search_notes).toMatchObject({
      hasHandler: true,
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, limit: { type: 'integer' } },
        required: ['text'],
      },
    });
    expect(byName.search_notes?.inputSchema).not.toHaveProperty('$schema');
    expect(byName.count?.inputSchema).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
    expect(byName.later).toMatchObject({ hasHandler: false });
    expect(byName.add_note).not.toHaveProperty('outputSchema');
    // A declared output, as the model reads the result: the output side (a default is filled in).
    expect(byName.stamp?.outputSchema).toMatchObject({
      type: 'object',
      properties: { at: { type: 'string' }, n: { type: 'number' } },
      required: ['at', 'n'],
    });
    expect(byName.stamp_old?.outputSchema).toMatchObject({ type: 'object', required: ['at'] });
    expect(byName.listed).not.toHaveProperty('outputSchema');
    expect(byName.listed?.outputSchemaProblem).toContain('root is "array"');
    expect(readManifest(manifest).tools).toEqual(manifest.tools);
  });

  it('refuses a manifest whose tool input schema is not an object of JSON', () => {
    const manifest = describeDefinition(definition);
    const forged = { ...manifest, tools: [{ name: 'x', description: 'x', inputSchema: 'everything' }] };
    expect(() => readManifest(forged)).toThrow(/tools\.0\.inputSchema/);
  });
});

describe('readToolEnvelope (an answer that crossed from an isolate)', () => {
  const generic = {
    ok: false,
    error: { code: 'handler_error', message: TOOL_FAILED_MESSAGE, isPublic: false },
  };

  it('passes well-formed envelopes on, dropping fields it does not know', () => {
    expect(readToolEnvelope({ ok: true, data: { n: 1 }, extra: 'x' })).toEqual({ ok: true, data: { n: 1 } });
    expect(
      readToolEnvelope({
        ok: false,
        error: {
          code: 'invalid_input',
          message: 'bad',
          issues: [{ message: 'm', path: ['a', 1, {}], secret: 'x' }],
        },
      }),
    ).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'bad', issues: [{ message: 'm', path: ['a', 1] }] },
    });
    expect(
      readToolEnvelope({ ok: false, error: { code: 'handler_error', message: 'No.', isPublic: true } }),
    ).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'No.', isPublic: true },
    });
  });

  it('answers anything else as the generic failure, and cuts long messages', () => {
    for (const forged of [
      null,
      'ok',
      { ok: 'yes' },
      { ok: false },
      { ok: false, error: { code: 'rate_limited', message: 'x' } },
      { ok: false, error: { code: 'handler_error', message: 'internals', isPublic: 'true' } },
      { ok: false, error: { code: 'tool_not_found', message: 7 } },
    ]) {
      expect(readToolEnvelope(forged)).toEqual(generic);
    }
    const long = readToolEnvelope({ ok: false, error: { code: 'conflict', message: 'x'.repeat(10_000) } });
    expect(!long.ok && long.error.message.length).toBe(TOOL_MESSAGE_MAX_CHARS);
  });
});
