// A log entry as the line that crosses: its JSON text, within LOG_LINE_CHARS. A longer message is
// cut to MESSAGE_CHARS (the host reads at most four times its line cap of a message before
// redaction, 32 KiB by default, and cuts it again after), then fields that still do not fit are
// dropped, saying so; a line still too long (a message JSON escapes to six times its length) is
// replaced by one saying it was dropped.
import { droppedLogLine, LOG_LINE_CHARS, overLimit } from '../limits.js';

// Taken when the prelude runs, before partner code can replace them.
// JSON.stringify's answer is undefined for undefined (an sdk logger entry always is an object).
const stringifyEntry: (value: unknown) => string | undefined = JSON.stringify;
const jsonStringify: (value: unknown) => string = JSON.stringify;
const reflectApply = Reflect.apply;
const stringSlice = String.prototype.slice;
const MESSAGE_CHARS = LOG_LINE_CHARS / 2;

/** A log entry: the sdk's logger's, or console's (`{ level, message }`); partner code's. */
export interface LogEntry {
  readonly level?: unknown;
  readonly message?: unknown;
  readonly fields?: unknown;
}

/** The line a log entry crosses as. */
export function lineOf(entry: LogEntry): string | undefined {
  const line = stringifyEntry(entry);
  if (typeof line !== 'string' || line.length <= LOG_LINE_CHARS) return line;
  const { level, message, fields } = entry;
  const cut = typeof message === 'string' ? reflectApply(stringSlice, message, [0, MESSAGE_CHARS]) : message;
  const withFields = jsonStringify({ level, message: cut, fields });
  if (withFields.length <= LOG_LINE_CHARS) return withFields;
  const fieldsDropped = `fields dropped: ${overLimit('the line', line.length, LOG_LINE_CHARS)}`;
  const withoutFields = jsonStringify({ level, message: cut, fields: { fieldsDropped } });
  if (withoutFields.length <= LOG_LINE_CHARS) return withoutFields;
  return droppedLogLine(line.length, jsonStringify);
}
