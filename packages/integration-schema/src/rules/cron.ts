/**
 * The five cron fields in order, with the numeric bounds an explicit value may take.
 *
 * @example CRON_FIELDS[1] // { name: 'hour', key: 'hour', min: 0, max: 23 }
 */
export const CRON_FIELDS = [
  { name: 'minute', key: 'minute', min: 0, max: 59 },
  { name: 'hour', key: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', key: 'dayOfMonth', min: 1, max: 31 },
  { name: 'month', key: 'month', min: 1, max: 12 },
  { name: 'day-of-week', key: 'dayOfWeek', min: 0, max: 7 },
] as const;

/**
 * Expanded, sorted, unique values per field; day-of-week 7 (Sunday) is normalised to 0.
 *
 * @example checkCron('0 9 * * 1-5') // fields.dayOfWeek: [1, 2, 3, 4, 5]
 */
export interface CronFields {
  readonly minute: readonly number[];
  readonly hour: readonly number[];
  readonly dayOfMonth: readonly number[];
  readonly month: readonly number[];
  readonly dayOfWeek: readonly number[];
}

/**
 * Outcome of {@link checkCron}: the expanded fields, or one message naming the field and the fix.
 *
 * @example { ok: false, message: 'hour field "24" is out of range 0-23' }
 */
export type CronCheck =
  | { readonly ok: true; readonly fields: CronFields }
  | { readonly ok: false; readonly message: string };

type Field = (typeof CRON_FIELDS)[number];

const FIELD_LIST = 'minute hour day-of-month month day-of-week';
// Only ASCII whitespace separates fields, so a non-breaking space pasted from a document is reported, not
// silently accepted.
const SEPARATOR = /[ \t\n\v\f\r]+/;
// Deliberately no bare "N/step": libraries disagree on it ("from N to max" vs. refused) and the spec only
// lists "*/n" and "a-b/n". Linear pattern, no backtracking risk on long input.
const ITEM = /^(?:(\*)|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/;
const MACRO_EQUIVALENT: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/**
 * Checks a 5-field numeric cron expression against our strict grammar and expands its fields.
 *
 * @example checkCron('*\/15 * * * *') // { ok: true, fields: { minute: [0, 15, 30, 45], ... } }
 */
export function checkCron(expression: string): CronCheck {
  // Config arrives from JSON/YAML, so the declared type is not a guarantee.
  if (typeof expression !== 'string') return fail('a cron expression must be a string');
  const parts = expression.split(SEPARATOR).filter((part) => part !== '');
  const first = parts[0];
  if (first === undefined) return fail(`the cron expression is empty; expected 5 fields (${FIELD_LIST})`);
  if (first.startsWith('@')) {
    // @reboot and unknown macros have no time-based equivalent, so naming the fields is the only honest hint.
    const equivalent = MACRO_EQUIVALENT[first.toLowerCase()];
    const example = equivalent ? `for example "${equivalent}"` : FIELD_LIST;
    return fail(
      `${quote(first)} is a macro; macros are not supported, write the 5 fields instead (${example})`,
    );
  }
  if (parts.length !== CRON_FIELDS.length) {
    return fail(`expected 5 fields (${FIELD_LIST}), got ${parts.length}${extraFieldHint(parts)}`);
  }
  const expanded: number[][] = [];
  for (const [index, field] of CRON_FIELDS.entries()) {
    const result = expandField(field, parts[index] ?? '');
    if (typeof result === 'string') return fail(result);
    expanded.push(result);
  }
  const [minute = [], hour = [], dayOfMonth = [], month = [], dayOfWeek = []] = expanded;
  return { ok: true, fields: { minute, hour, dayOfMonth, month, dayOfWeek } };
}

function fail(message: string): CronCheck {
  return { ok: false, message };
}

// JSON quoting keeps control characters and embedded quotes readable in the message.
function quote(text: string): string {
  return JSON.stringify(text);
}

function extraFieldHint(parts: readonly string[]): string {
  if (parts.length === 6) {
    // A four-digit last field can only be a year; otherwise the extra field is almost always seconds.
    return /^\d{4}(?:[-,/]|$)/.test(parts[5] ?? '')
      ? '; a year field is not supported'
      : '; a seconds field is not supported';
  }
  if (parts.length === 7) return '; seconds and year fields are not supported';
  return '';
}

function allowed(field: Field): string {
  return field.key === 'dayOfWeek' ? '0-7 (0 and 7 are Sunday)' : `${field.min}-${field.max}`;
}

// "*" on day-of-week means 0-6: 7 is only an alias for Sunday, not an eighth day.
function starMax(field: Field): number {
  return field.key === 'dayOfWeek' ? 6 : field.max;
}

// A string result is the error message; the caller stops at the first field that fails.
function expandField(field: Field, text: string): number[] | string {
  const items = text.split(',');
  if (items.includes('')) {
    return `${field.name} field ${quote(text)} has an empty list item; remove the extra comma`;
  }
  const values = new Set<number>();
  for (const item of items) {
    const subject =
      items.length === 1
        ? `${field.name} field ${quote(text)}`
        : `${field.name} field ${quote(text)} item ${quote(item)}`;
    const match = ITEM.exec(item);
    if (!match) return `${subject}${diagnose(field, item)}`;
    const [, star, startText, endText, stepText] = match;
    const start = star ? field.min : Number(startText);
    const end = star ? starMax(field) : endText === undefined ? start : Number(endText);
    if (start < field.min || start > field.max || end < field.min || end > field.max) {
      return `${subject} is out of range ${allowed(field)}`;
    }
    if (stepText !== undefined && !star && endText === undefined) {
      return `${subject}: a step needs "*" or a range before it, for example "${start}-${starMax(field)}/${stepText}"`;
    }
    if (end < start) {
      return `${subject}: a range must ascend; to wrap around, write "${start}-${starMax(field)},${field.min}-${end}"`;
    }
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) return `${subject}: a step must be at least 1`;
    // A step wider than the field only ever selects the start value, and some libraries refuse it outright.
    const span = starMax(field) - field.min;
    if (step > span) return `${subject}: a step must be at most ${span}`;
    for (let value = start; value <= end; value += step) {
      values.add(field.key === 'dayOfWeek' && value === 7 ? 0 : value);
    }
  }
  return [...values].sort((a, b) => a - b);
}

// Turns a malformed item into the most specific reason we can name, falling back to the accepted forms.
function diagnose(field: Field, item: string): string {
  const numbers = `use numbers ${allowed(field)}`;
  if (item.includes('?')) return ': "?" is not supported; use "*"';
  if (item.includes('#')) return `: "#" (nth weekday of the month) is not supported; ${numbers}`;
  const word = /[a-z]+/i.exec(item)?.[0];
  if (word !== undefined) {
    const upper = word.toUpperCase();
    const names = field.key === 'month' ? MONTH_NAMES : field.key === 'dayOfWeek' ? DAY_NAMES : [];
    if (names.includes(upper)) return ` uses a name; ${numbers}`;
    if (upper === 'L' || upper === 'W' || upper === 'LW') {
      return `: "${word}" (last day / nearest weekday) is not supported; ${numbers}`;
    }
    return `: letters are not supported; ${numbers}`;
  }
  if (item.includes('.')) return `: decimals are not supported; use whole numbers ${allowed(field)}`;
  if (item.includes('+') || item.startsWith('-') || item.includes('--') || item.includes('/-')) {
    return `: signs and negative numbers are not supported; ${numbers}`;
  }
  return `: expected a number, "*", a range such as "1-5", or a step such as "*/15" or "0-30/5"`;
}
