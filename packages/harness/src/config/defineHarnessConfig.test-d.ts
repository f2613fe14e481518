import {
  asHarnessDefinition,
  defineHarnessConfig,
  type HarnessDefinition,
  type HarnessWidget,
  harnessWidgetsFromDefinition,
} from '@platform/harness';
import { defineIntegration } from '@platform/sdk/integration';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const Board = (_props: { readonly title?: string }) => null;

const definition = defineIntegration({
  slug: 'acme-notes',
  egress: ['https://api.acme.com'],
  components: { widgets: [{ id: 'acme-notes-board', name: 'Board', component: Board }] },
  storage: { account: { settings: z.object({ workspace: z.string() }) } },
  actions: {
    'create-note': {
      description: 'Create a note',
      input: z.object({ title: z.string() }),
      handler: async (ctx, input) => {
        await ctx.storage.account.get('settings');
        return { id: input.title };
      },
    },
  },
});

describe('defineHarnessConfig types', () => {
  it('keeps the literal types of the entries', () => {
    const config = defineHarnessConfig([
      {
        slug: 'acme-notes',
        name: 'Acme Notes',
        description: 'Notes',
        widgets: [{ id: 'board', title: 'Board', component: Board, width: 'full' }],
        fixtures: { default: [{ request: 'GET /v1/notes', response: [] }] },
      },
    ]);
    expectTypeOf(config[0].slug).toEqualTypeOf<'acme-notes'>();
    expectTypeOf(config[0].widgets[0].width).toEqualTypeOf<'full'>();
  });

  it('refuses a wrong width or variant at compile time', () => {
    defineHarnessConfig([
      {
        slug: 'a',
        name: 'A',
        description: '',
        widgets: [
          {
            id: 'w',
            title: 'W',
            component: Board,
            // @ts-expect-error width is 'half' or 'full'
            width: 'wide',
          },
        ],
      },
    ]);
    defineHarnessConfig([
      // @ts-expect-error variants are default, empty and error
      { slug: 'a', name: 'A', description: '', widgets: [], fixtures: { staging: [] } },
    ]);
    // @ts-expect-error a misspelt key is flagged, not ignored
    defineHarnessConfig([{ slug: 'a', name: 'A', description: '', widgets: [], fixture: {} }]);
  });

  it('takes a typed definition through asHarnessDefinition and derives widgets from it', () => {
    expectTypeOf(asHarnessDefinition(definition)).toEqualTypeOf<HarnessDefinition>();
    expectTypeOf(harnessWidgetsFromDefinition(definition)).toEqualTypeOf<HarnessWidget[]>();
    defineHarnessConfig([
      {
        slug: 'acme-notes',
        name: 'Acme Notes',
        description: 'Notes',
        definition: asHarnessDefinition(definition),
        widgets: harnessWidgetsFromDefinition(definition, { 'acme-notes-board': { width: 'full' } }),
      },
    ]);
  });
});
