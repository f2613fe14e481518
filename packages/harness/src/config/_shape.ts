// Small readers for configuration values that arrive as `unknown`: harness.config.ts is partner code,
// often plain JavaScript or cast, so the types promise nothing at run time.

/** Adds one problem for the entry being checked. */
export type Report = (field: string, message: string) => void;

/** A plain object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What React can render as a component: a function (function or class component) or one of
 * React's wrapper objects (`memo`, `forwardRef`, `lazy`), which all carry `$$typeof`.
 */
export function isComponent(value: unknown): boolean {
  return typeof value === 'function' || (isRecord(value) && '$$typeof' in value);
}

/** A value as a message names it: `a number (3)`, `an array`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `a string (${JSON.stringify(value)})`;
    case 'number':
    case 'boolean':
      return `a ${typeof value} (${String(value)})`;
    case 'function':
      return 'a function';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/** `parent.key`, or `key` at the top of an entry. */
export function fieldPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/**
 * Reports every key of `value` that is not in `allowed`, naming the allowed keys and the closest
 * one: a misspelt optional key would otherwise be silently ignored.
 */
export function checkKeys(
  value: Record<string, unknown>,
  allowed: readonly string[],
  field: string,
  report: Report,
): void {
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const closest = closestName(key, allowed);
    const hint = closest === undefined ? '' : ` Did you mean "${closest}"?`;
    report(
      fieldPath(field, key),
      `unknown key "${key}"; remove it or use one of the allowed keys: ${allowed.join(', ')}.${hint}`,
    );
  }
}

/** Reports a missing or non-string value; `nonEmpty` also refuses `''`. Returns the string when valid. */
export function checkString(
  value: unknown,
  field: string,
  report: Report,
  options: { readonly required: boolean; readonly nonEmpty?: boolean; readonly example: string },
): string | undefined {
  if (value === undefined) {
    if (options.required) report(field, `is required; set it to a string, for example ${options.example}.`);
    return undefined;
  }
  if (typeof value !== 'string') {
    report(field, `must be a string, not ${describeValue(value)}; for example ${options.example}.`);
    return undefined;
  }
  if (options.nonEmpty === true && value.trim() === '') {
    report(field, `must not be empty; for example ${options.example}.`);
    return undefined;
  }
  return value;
}

/** Reports an optional flag that is not a boolean. */
export function checkBoolean(value: unknown, field: string, report: Report): void {
  if (value !== undefined && typeof value !== 'boolean') {
    report(field, `must be true or false, not ${describeValue(value)}.`);
  }
}

// Edit distance up to 2, or a case-only difference: close enough to be a typo worth naming.
function closestName(key: string, allowed: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of allowed) {
    const distance = name.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, name);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
