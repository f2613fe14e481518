const KEBAB_CASE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** True for kebab-case: `[a-z0-9]` segments separated by single hyphens (digits may lead). */
export function isKebabCase(value: string): boolean {
  return KEBAB_CASE.test(value);
}

/** True for lowercase snake_case starting with a letter, as tool names must be. */
export function isSnakeCase(value: string): boolean {
  return SNAKE_CASE.test(value);
}

/**
 * The closest kebab-case spelling of a name, for hints.
 * @example toKebabCase('Notes_Board') // 'notes-board'
 */
export function toKebabCase(value: string): string {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The closest snake_case spelling of a name, for hints.
 * @example toSnakeCase('syncNotes') // 'sync_notes'
 */
export function toSnakeCase(value: string): string {
  return toKebabCase(value)
    .replace(/-/g, '_')
    .replace(/^[0-9_]+/, '');
}

/** The message for a name that is not kebab-case, with the nearest valid spelling as the fix. */
export function kebabCaseMessage(what: string, value: string): string {
  const suggestion = toKebabCase(value);
  const example = suggestion ? ` (for example "${suggestion}")` : '';
  return `${what} "${value}" is not kebab-case; use lowercase letters and digits separated by single hyphens${example}`;
}
