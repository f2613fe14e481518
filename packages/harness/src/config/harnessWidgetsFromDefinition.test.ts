import { defineHarnessConfig, HarnessConfigError, harnessWidgetsFromDefinition } from '@platform/harness';
import { defineIntegration } from '@platform/sdk/integration';
import { describe, expect, it } from 'vitest';

const Board = () => null;
const List = () => null;
const Other = () => null;

const definition = defineIntegration({
  slug: 'acme-notes',
  components: {
    widgets: [
      {
        id: 'acme-notes-board',
        name: 'Notes board',
        component: Board,
        isCollapsible: true,
        aiFooterEnabled: false,
      },
      { id: 'acme-notes-list', name: 'Notes list', component: List, isPinnable: true },
    ],
  },
});

function configErrorOf(run: () => unknown): HarnessConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessConfigError);
    return error as HarnessConfigError;
  }
  throw new Error('expected a HarnessConfigError');
}

describe('harnessWidgetsFromDefinition', () => {
  it('derives id, title (the widget name), component and the chrome flags it declares', () => {
    expect(harnessWidgetsFromDefinition(definition)).toEqual([
      {
        id: 'acme-notes-board',
        title: 'Notes board',
        component: Board,
        isCollapsible: true,
        aiFooterEnabled: false,
      },
      { id: 'acme-notes-list', title: 'Notes list', component: List, isPinnable: true },
    ]);
  });

  it('takes width and seeds from the override keyed by widget id, and the override wins where both speak', () => {
    const seeds = { default: [{ queryKey: ['notes'], data: [] }] };
    const widgets = harnessWidgetsFromDefinition(definition, {
      'acme-notes-board': { width: 'full', seeds, title: 'Board', isCollapsible: false, component: Other },
      'acme-notes-list': { isPinnable: undefined as never },
    });
    expect(widgets).toEqual([
      {
        id: 'acme-notes-board',
        title: 'Board',
        component: Other,
        isCollapsible: false,
        aiFooterEnabled: false,
        width: 'full',
        seeds,
      },
      // An override key left undefined does not erase what the definition says.
      { id: 'acme-notes-list', title: 'Notes list', component: List, isPinnable: true },
    ]);
    expect(() =>
      defineHarnessConfig([{ slug: 'acme-notes', name: 'A', description: '', widgets }]),
    ).not.toThrow();
  });

  it('throws for an override keyed to a widget the definition does not declare, naming the declared ids', () => {
    const error = configErrorOf(() =>
      harnessWidgetsFromDefinition(definition, {
        board: { width: 'full' },
        'acme-notes-list': { width: 'full' },
      }),
    );
    expect(error.problems).toEqual([
      {
        entry: 'acme-notes',
        field: 'overrides.board',
        message:
          'no widget "board" in the definition; the declared widget ids are "acme-notes-board", "acme-notes-list". Key the override by one of them, or remove it.',
      },
    ]);
    const none = configErrorOf(() => harnessWidgetsFromDefinition({ slug: 'bare' }, { board: {} }));
    expect(none.problems[0]?.message).toContain('"bare" declares no widgets');
  });

  it('reports every problem of the overrides together', () => {
    const error = configErrorOf(() =>
      harnessWidgetsFromDefinition(definition, {
        'acme-notes-board': { width: 'wide' as never, id: 'x' } as never,
        'acme-notes-list': { seeds: { staging: [] } as never },
        nope: {},
      }),
    );
    expect(error.problems.map((problem) => problem.field)).toEqual([
      'overrides.acme-notes-board.id',
      'overrides.acme-notes-board.width',
      'overrides.acme-notes-list.seeds.staging',
      'overrides.nope',
    ]);
  });

  it('needs a component to render: from the definition or the override', () => {
    const headless = { slug: 'headless', components: { widgets: [{ id: 'w', name: 'W', component: 'w' }] } };
    expect(configErrorOf(() => harnessWidgetsFromDefinition(headless)).problems).toEqual([
      {
        entry: 'headless',
        field: 'components.widgets[0].component',
        message: expect.stringContaining('must be a React component'),
      },
    ]);
    expect(harnessWidgetsFromDefinition(headless, { w: { component: Board } })).toEqual([
      { id: 'w', title: 'W', component: Board },
    ]);
  });
});
