import type { LogEntry } from '@platform/sdk/runtime';
import { redactFields, redactText } from '@platform/sdk/runtime';
import type { Logger } from 'pino';
import { securityEvent } from '../security/securityEvent.js';
import type { CallLogBudget } from './logBudget.js';

type Level = LogEntry['level'];
const LEVELS: ReadonlySet<string> = new Set<Level>(['debug', 'info', 'warn', 'error']);

/**
 * Top-level keys a partner line may not carry: the call's identity the host binds to every line,
 * the security event markers, pino's own keys, and this module's markers. Partner fields stay at
 * the top level (operators and tests read them there); one of these names is dropped and listed
 * in `droppedFields`.
 */
export const HOST_LOG_FIELDS: ReadonlySet<string> = new Set([
  'integration',
  'version',
  'accountId',
  'requestId',
  'userId',
  'partner',
  'event',
  'kind',
  'budget',
  'level',
  'time',
  'msg',
  'pid',
  'hostname',
  'droppedFields',
  'fieldsDropped',
]);

/** One partner line as the host writes it: level checked, message and fields redacted and cut. */
export interface PartnerLine {
  readonly level: Level;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>> | undefined;
  /** UTF-8 bytes of the message and of the fields' JSON: what the budgets count. */
  readonly bytes: number;
}

// Text read before redaction, in characters: a line is cut at `lineBytes` anyway, so a huge message
// is not run through redaction whole. Redaction can shorten text (a long query becomes `?...`),
// hence the margin.
const READ_FACTOR = 4;
// Where a URL in text ends (see redact.ts).
const URL_END = /[\s"'<>`]/;

/**
 * Turns whatever the guest sent as a log entry into a line the host may write. Never throws.
 * @example toPartnerLine({ level: 'info', message: 'GET https://u:p@a.com/x?k=1' }, 8192).message // 'GET https://a.com/x?...'
 */
export function toPartnerLine(entry: unknown, lineBytes: number): PartnerLine {
  return prepareLine(readEntry(entry), lineBytes);
}

interface RawEntry {
  readonly level: Level;
  readonly message: unknown;
  readonly fields: unknown;
}

// Reading a property of what an in-process guest passed may throw (a getter, a proxy).
function readEntry(entry: unknown): RawEntry {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return { level: 'info', message: entry, fields: undefined };
  }
  try {
    const record = entry as Record<string, unknown>;
    const level = record.level;
    return {
      level: typeof level === 'string' && LEVELS.has(level) ? (level as Level) : 'info',
      message: record.message,
      fields: record.fields,
    };
  } catch {
    return { level: 'info', message: '[unreadable log entry]', fields: undefined };
  }
}

function prepareLine(entry: RawEntry, lineBytes: number): PartnerLine {
  const message = cutMessage(stringify(entry.message), lineBytes);
  const messageBytes = Buffer.byteLength(message);
  const fields = prepareFields(entry.fields, Math.max(0, lineBytes - messageBytes), lineBytes);
  return { level: entry.level, message, fields: fields?.value, bytes: messageBytes + (fields?.bytes ?? 0) };
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return '[unprintable message]';
    }
  }
}

/** Redacted, then at most `lineBytes` bytes (on a character boundary) with a marker when cut. */
function cutMessage(text: string, lineBytes: number): string {
  const readable = lineBytes * READ_FACTOR;
  let head = text;
  if (text.length > readable) {
    head = text.slice(0, readable);
    // A last word holding "://" may be a URL cut short, which redaction would no longer recognise
    // (its userinfo could show): it goes. A word without it cannot hide the start of one.
    let end = head.length;
    while (end > 0 && !URL_END.test(head[end - 1]!)) end -= 1;
    if (head.slice(end).includes('://')) head = head.slice(0, end);
  }
  const redacted = Buffer.from(redactText(head), 'utf8');
  if (head === text && redacted.length <= lineBytes) return redacted.toString('utf8');
  let end = Math.min(lineBytes, redacted.length);
  // Not inside a UTF-8 sequence: back up to its first byte.
  while (end > 0 && end < redacted.length && (redacted[end]! & 0xc0) === 0x80) end -= 1;
  return `${redacted.subarray(0, end).toString('utf8')} [... cut: the message had ${Buffer.byteLength(text)} bytes]`;
}

function prepareFields(
  raw: unknown,
  room: number,
  lineBytes: number,
): { value: Record<string, unknown>; bytes: number } | undefined {
  if (!isPlainObject(raw)) return undefined;
  const tooLarge = (size: string) => {
    const value = { fieldsDropped: `fields dropped: ${size}, over the ${lineBytes}-byte line cap` };
    return { value, bytes: Buffer.byteLength(JSON.stringify(value)) };
  };
  const unserialisable = () => {
    const value = { fieldsDropped: 'fields dropped: not serialisable as JSON' };
    return { value, bytes: Buffer.byteLength(JSON.stringify(value)) };
  };
  let rawJson: string | undefined;
  let redacted: Record<string, unknown>;
  try {
    rawJson = JSON.stringify(raw);
    if (rawJson === undefined || rawJson === '{}') return undefined;
    // Cheap bound before redaction walks every string.
    if (rawJson.length > lineBytes * READ_FACTOR) return tooLarge(`${rawJson.length} characters`);
    redacted = redactFields(raw) as Record<string, unknown>;
  } catch {
    return unserialisable();
  }
  const dropped: string[] = [];
  const kept: [string, unknown][] = [];
  for (const [key, value] of Object.entries(redacted)) {
    if (HOST_LOG_FIELDS.has(key)) dropped.push(key);
    else kept.push([key, value]);
  }
  if (dropped.length > 0) kept.push(['droppedFields', dropped]);
  if (kept.length === 0) return undefined;
  // fromEntries defines own properties, so a "__proto__" key stays a plain field.
  const value = Object.fromEntries(kept);
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes > room) return tooLarge(`${bytes} bytes`);
  return { value, bytes };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  try {
    const prototype = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  } catch {
    return false;
  }
}

/** Who a call's partner lines are about; bound to every line so partner fields cannot replace it. */
export interface PartnerLogIdentity {
  readonly integration: string;
  readonly version: number;
  readonly accountId: string;
  readonly requestId?: string | undefined;
}

/**
 * The `log` capability of one call: every entry validated, redacted (`redactText` /
 * `redactFields`), cut to the line cap and counted against the call's budget; past a budget one
 * warn line and one `log_budget` security event, then nothing more.
 * @example log: createPartnerLog({ logger, identity, budget: services.logBudgets.forCall(slug), lineBytes: 8192 })
 */
export function createPartnerLog(options: {
  readonly logger: Logger;
  readonly identity: PartnerLogIdentity;
  readonly budget: CallLogBudget;
  readonly lineBytes: number;
}): (entry: LogEntry) => void {
  const { logger, identity, budget, lineBytes } = options;
  // Made at the call's first line: most calls log nothing, and a child logger serialises its bindings.
  let child: Logger | undefined;
  const callLogger = () => {
    if (child === undefined) {
      const bound = Object.fromEntries(Object.entries(identity).filter(([, value]) => value !== undefined));
      child = logger.child(bound);
    }
    return child;
  };
  return (entry) => {
    const raw = readEntry(entry);
    // A line the logger would not write is not prepared, nor counted (a child logs at its parent's level).
    if (!logger.isLevelEnabled(raw.level) || budget.closed()) return;
    const line = prepareLine(raw, lineBytes);
    const admission = budget.admit(line.bytes);
    if (admission.admitted) {
      callLogger()[line.level]({ partner: true, ...line.fields }, line.message);
      return;
    }
    const notice = admission.notice;
    if (notice === undefined) return;
    callLogger().warn(
      { budget: notice.budget, loggedLines: notice.loggedLines, loggedBytes: notice.loggedBytes },
      notice.message,
    );
    securityEvent(logger, 'log_budget', { ...identity, budget: notice.budget }, notice.message);
  };
}
