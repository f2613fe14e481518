import type { Style } from '../../cli/terminal.js';

/** Every finding `validate` reports, with the severity it has there. */
export const FINDING_SEVERITY = {
  'definition.schema': 'error',
  'definition.load': 'error',
  'definition.connection': 'error',
  'project.manifest': 'error',
  'project.listing': 'error',
  'project.components': 'error',
  'project.host-compiler-rules': 'warning',
  'project.slug-agreement': 'error',
  'collision.widget-id': 'error',
  'collision.tool-name': 'error',
  'tool.name-too-long': 'error',
  'tool.no-handler': 'warning',
  'tool.input-schema': 'warning',
  'tool.output-schema': 'warning',
  'icons/pro-only': 'warning',
  'docs/missing-file': 'warning',
  'bundle.browser-size': 'warning',
  'bundle.browser-build': 'error',
} as const;

/** The id of a finding, such as `definition.schema` or `icons/pro-only`. */
export type FindingId = keyof typeof FINDING_SEVERITY;

/** How much a finding matters: any `error` fails `validate` (exit 3); warnings alone do not. */
export type Severity = 'error' | 'warning';

/**
 * One thing `validate` found. `path` is where: a definition path (`components.widgets.0.icon`) for
 * definition findings, a project file (`tsconfig.json`, `docs/setup.md`) for project findings.
 */
export interface Finding {
  readonly id: FindingId;
  readonly severity: Severity;
  readonly message: string;
  readonly path?: string;
  /** An imperative sentence: what to do. */
  readonly hint?: string;
}

/** A finding with its id's usual severity (a manifest problem may lower it to a warning). */
export function finding(
  id: FindingId,
  fields: { message: string; path?: string | undefined; hint: string; severity?: Severity },
): Finding {
  return {
    id,
    severity: fields.severity ?? FINDING_SEVERITY[id],
    message: fields.message,
    ...(fields.path === undefined ? {} : { path: fields.path }),
    hint: fields.hint,
  };
}

/** A finding as `platform validate` prints it (and `platform test` for definition problems). */
export function renderFinding(item: Finding, style: Style): string[] {
  const label = item.severity === 'error' ? style.red('error  ') : style.yellow('warning');
  const lines = [`${label} ${style.bold(item.id)}  ${item.message}`];
  if (item.path !== undefined) lines.push(`        ${style.dim('at')} ${item.path}`);
  if (item.hint !== undefined) lines.push(`        ${style.cyan('hint')} ${item.hint}`);
  return lines;
}
