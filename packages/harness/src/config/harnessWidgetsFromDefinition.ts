import type { AnyIntegrationDefinition } from '@platform/sdk/integration';
import type { HarnessWidget } from '../types.js';
import { checkWidget } from './_checkWidget.js';
import { describeValue, isComponent, isRecord } from './_shape.js';
import { HarnessConfigError, type HarnessConfigProblem } from './HarnessConfigError.js';

/** What an override may set on a derived widget: `width` and `seeds`, and any field it wins over. */
export type HarnessWidgetOverride = Partial<Omit<HarnessWidget, 'id'>>;

/** Overrides keyed by the definition's widget ids. */
export type HarnessWidgetOverrides = Readonly<Record<string, HarnessWidgetOverride>>;

/**
 * The harness widgets of a definition (`components.widgets`): `id`, `title` from the widget's
 * `name`, `component`, and the chrome flags. An override keyed by widget id supplies `width` and
 * `seeds` and wins where both speak; an override for an id the definition does not declare throws a
 * `HarnessConfigError` naming the declared ids.
 * @example
 * widgets: harnessWidgetsFromDefinition(acmeNotes, {
 *   'acme-notes-board': { width: 'full', seeds: { default: [{ queryKey: ['notes'], data: [] }] } },
 * })
 */
export function harnessWidgetsFromDefinition(
  definition: Pick<AnyIntegrationDefinition, 'slug' | 'components'>,
  overrides: HarnessWidgetOverrides = {},
): HarnessWidget[] {
  // Partner code may be plain JavaScript: the shapes are checked, not trusted.
  if (!isRecord(definition)) {
    throw new HarnessConfigError([
      {
        entry: '(definition)',
        field: 'definition',
        message: `must be the object defineIntegration() returned, not ${describeValue(definition)}.`,
      },
    ]);
  }
  const entry =
    typeof definition.slug === 'string' && definition.slug !== '' ? definition.slug : '(definition)';
  const problems: HarnessConfigProblem[] = [];
  const report = (field: string, message: string) => problems.push({ entry, field, message });
  if (!isRecord(overrides)) {
    report('overrides', `must be an object keyed by widget id, not ${describeValue(overrides)}.`);
    overrides = {};
  }

  const declared = Array.isArray(definition.components?.widgets) ? definition.components.widgets : [];
  const widgets: HarnessWidget[] = [];
  for (const [index, widget] of declared.entries()) {
    if (!isComponent(widget.component) && !isComponent(overrides[widget.id]?.component)) {
      report(
        `components.widgets[${index}].component`,
        `must be a React component for the harness to render, not ${describeValue(widget.component)}; set it in the definition, or pass one as the override's component.`,
      );
      continue;
    }
    widgets.push(derive(widget, overrides[widget.id] ?? {}));
  }

  const ids = declared.map((widget) => widget.id);
  for (const [id, override] of Object.entries(overrides)) {
    const field = `overrides.${id}`;
    if (!ids.includes(id)) {
      const known =
        ids.length === 0
          ? `"${entry}" declares no widgets (components.widgets is empty)`
          : `the declared widget ids are ${ids.map((name) => `"${name}"`).join(', ')}`;
      report(
        field,
        `no widget "${id}" in the definition; ${known}. Key the override by one of them, or remove it.`,
      );
      continue;
    }
    checkWidget(override, field, report, { override: true });
  }

  if (problems.length > 0) throw new HarnessConfigError(problems);
  return widgets;
}

type DeclaredWidget = NonNullable<NonNullable<AnyIntegrationDefinition['components']>['widgets']>[number];

function derive(declared: DeclaredWidget, override: HarnessWidgetOverride): HarnessWidget {
  const derived: Record<string, unknown> = {
    id: declared.id,
    title: declared.name,
    component: declared.component,
  };
  for (const flag of ['isCollapsible', 'isPinnable', 'aiFooterEnabled'] as const) {
    if (declared[flag] !== undefined) derived[flag] = declared[flag];
  }
  // Only what the override actually sets: an `undefined` left by a spread must not erase a flag.
  if (isRecord(override)) {
    for (const [key, value] of Object.entries(override)) if (value !== undefined) derived[key] = value;
  }
  return derived as unknown as HarnessWidget;
}
