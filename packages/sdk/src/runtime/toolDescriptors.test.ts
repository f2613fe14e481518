import { defineIntegration } from '@platform/sdk/integration';
import {
  describeDefinition,
  mcpToolOf,
  needsConfirmation,
  toolArgumentsJson,
  toolCallResult,
  toolConfirmationPrompt,
  toolDescriptors,
  toolRefusal,
} from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const definition = defineIntegration({
  slug: 'acme-notes',
  tools: [
    {
      name: 'search',
      description: 'Finds notes',
      input: z.object({ text: z.string() }),
      handler: async () => [],
    },
    { name: 'add', description: 'Adds a note', handler: async () => ({}) },
    { name: 'wipe', description: 'Deletes every note', handler: async () => ({}) },
    { name: 'peek', description: 'Reads secrets', handler: async () => ({}) },
    { name: 'later', description: 'No handler yet' },
    { name: `n${'x'.repeat(60)}`, description: 'Too long a name for model APIs', handler: async () => ({}) },
  ],
  proposes: {
    tools: {
      search: { effect: 'read', sensitivity: 'low' },
      wipe: { effect: 'destructive', sensitivity: 'medium' },
      peek: { effect: 'read', sensitivity: 'high' },
    },
  },
});

const tools = toolDescriptors('acme-notes', describeDefinition(definition));
const byName = (name: string) => tools.find((tool) => tool.toolName === name)!;

describe('toolDescriptors', () => {
  it('serves tools with a handler and a name model APIs take, by effective name, in declaration order', () => {
    expect(tools.map((tool) => tool.name)).toEqual([
      'acme_notes_search',
      'acme_notes_add',
      'acme_notes_wipe',
      'acme_notes_peek',
    ]);
    expect(byName('search')).toMatchObject({
      integration: 'acme-notes',
      title: 'acme-notes: search',
      description: 'Finds notes',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    });
  });

  it('reads effect and sensitivity from proposes (unproposed: write and high) and annotates them', () => {
    expect(byName('search')).toMatchObject({
      effect: 'read',
      sensitivity: 'low',
      annotations: { readOnlyHint: true, openWorldHint: true },
    });
    expect(byName('search').annotations).not.toHaveProperty('destructiveHint');
    expect(byName('add')).toMatchObject({
      effect: 'write',
      sensitivity: 'high',
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    });
    expect(byName('wipe').annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
  });

  it('asks before writes, destructive and highly sensitive tools unless the policy allows them', () => {
    expect(tools.map((tool) => [tool.toolName, needsConfirmation(tool)])).toEqual([
      ['search', false],
      ['add', true],
      ['wipe', true],
      ['peek', true],
    ]);
    expect(needsConfirmation(byName('wipe'), 'allow')).toBe(false);
  });

  it('gives the MCP Tool with _meta, the version only when there is one', () => {
    expect(mcpToolOf(byName('wipe'), 3)).toEqual({
      name: 'acme_notes_wipe',
      title: 'acme-notes: wipe',
      description: 'Deletes every note',
      inputSchema: byName('wipe').inputSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      _meta: {
        'platform/effect': 'destructive',
        'platform/sensitivity': 'medium',
        'platform/integration': 'acme-notes',
        'platform/version': 3,
      },
    });
    expect(mcpToolOf(byName('wipe'))._meta).not.toHaveProperty('platform/version');
  });
});

describe('confirmation and results', () => {
  it('names the integration, the tool and the arguments; a destructive prompt says it cannot be undone', () => {
    expect(toolConfirmationPrompt(byName('add'), { title: 'Hi' })).toBe(
      'acme-notes wants to run "add" with {"title":"Hi"}. It changes data. Run it?',
    );
    expect(toolConfirmationPrompt(byName('wipe'), undefined)).toContain(
      'with {}. It destroys data and cannot be undone.',
    );
    expect(toolConfirmationPrompt(byName('add'), { text: 'x'.repeat(700) }).length).toBeLessThan(700);
  });

  it('binds arguments regardless of key order', () => {
    expect(toolArgumentsJson({ b: 1, a: { d: [1, { f: 2, e: 1 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"e":1,"f":2}]},"b":1}',
    );
  });

  it('answers data as text and structuredContent (objects only), refusals as isError', () => {
    expect(toolCallResult({ id: 'n1' })).toEqual({
      content: [{ type: 'text', text: '{"id":"n1"}' }],
      structuredContent: { id: 'n1' },
    });
    expect(toolCallResult([1])).toEqual({ content: [{ type: 'text', text: '[1]' }] });
    expect(toolRefusal('No.')).toEqual({ content: [{ type: 'text', text: 'No.' }], isError: true });
  });
});
