import { checkSeeds } from './_checkSeeds.js';
import { widgetIdProblem } from './_names.js';
import {
  checkBoolean,
  checkKeys,
  checkString,
  describeValue,
  isComponent,
  isRecord,
  type Report,
} from './_shape.js';
import { checkVariantRecord } from './_variants.js';

/** The keys of a `HarnessWidget`, in the spec's order. */
export const WIDGET_KEYS = [
  'id',
  'title',
  'component',
  'width',
  'isCollapsible',
  'isPinnable',
  'aiFooterEnabled',
  'seeds',
] as const;

/** What an override of `harnessWidgetsFromDefinition()` may set: everything but the id it is keyed by. */
export const WIDGET_OVERRIDE_KEYS = WIDGET_KEYS.filter((key) => key !== 'id');

/**
 * Checks one widget (or, with `override`, one override of a derived widget, where every field is
 * optional and `id` is the map key). Returns the id when it is a string, for the duplicate check.
 */
export function checkWidget(
  widget: unknown,
  field: string,
  report: Report,
  options: { readonly override?: boolean } = {},
): string | undefined {
  const override = options.override === true;
  if (!isRecord(widget)) {
    report(
      field,
      override
        ? `must be an object of widget fields to override (${WIDGET_OVERRIDE_KEYS.join(', ')}), not ${describeValue(widget)}.`
        : `must be a widget object { id, title, component }, not ${describeValue(widget)}.`,
    );
    return undefined;
  }
  checkKeys(widget, override ? WIDGET_OVERRIDE_KEYS : WIDGET_KEYS, field, report);

  let id: string | undefined;
  if (!override) {
    id = checkString(widget.id, `${field}.id`, report, {
      required: true,
      nonEmpty: true,
      example: '"notes-board"',
    });
    const problem = id === undefined ? undefined : widgetIdProblem(id);
    if (problem !== undefined) report(`${field}.id`, problem);
  }
  checkString(widget.title, `${field}.title`, report, {
    required: !override,
    nonEmpty: true,
    example: '"Notes"',
  });
  if (widget.component !== undefined || !override) {
    if (widget.component === undefined) {
      report(`${field}.component`, 'is required; set it to the React component that renders the widget.');
    } else if (!isComponent(widget.component)) {
      report(
        `${field}.component`,
        `must be a React component (a function, or a memo/forwardRef/lazy object), not ${describeValue(widget.component)}.`,
      );
    }
  }
  if (widget.width !== undefined && widget.width !== 'half' && widget.width !== 'full') {
    report(
      `${field}.width`,
      `must be "half" or "full", not ${describeValue(widget.width)}; leave it out for "half".`,
    );
  }
  for (const flag of ['isCollapsible', 'isPinnable', 'aiFooterEnabled'] as const) {
    checkBoolean(widget[flag], `${field}.${flag}`, report);
  }
  if (widget.seeds !== undefined) {
    checkVariantRecord(widget.seeds, `${field}.seeds`, report, (seeds, at) => checkSeeds(seeds, at, report));
  }
  return id;
}
