import type { Context } from 'hono';
import type { HostLimits } from '../HostServices.js';
import { declaredBodySize } from './_bodyLimit.js';
import { RouteError } from './_errors.js';

/** A request schema of @platform/wire, as far as the host uses it (zod's `safeParse`). */
export interface BodySchema<T> {
  safeParse(value: unknown):
    | { success: true; data: T }
    | {
        success: false;
        error: { issues: readonly { path: readonly PropertyKey[]; message: string; code: string }[] };
      };
}

/** What a JSON route's body may be: `limits.jsonBodyBytes` bytes, `limits.jsonBodyDepth` levels. */
export type JsonBodyLimits = Pick<HostLimits, 'jsonBodyBytes' | 'jsonBodyDepth'>;

/**
 * The request's JSON object body, read through the one limit of every JSON route: a declared
 * Content-Length over `jsonBodyBytes` is refused unread, a streamed body is cut off at the limit
 * (never buffered whole), 413 `payload_too_large`; arrays and objects nested deeper than
 * `jsonBodyDepth` are refused by a scan before `JSON.parse` runs, 400 `invalid_input`. Not JSON
 * or not an object: 400 `invalid_input` whose hint shows `usage` (an example body).
 * `optional`: no body at all reads as `{}`.
 * @example const body = await jsonBody(services.limits, c, '{ "code": "123456" }');
 */
export async function jsonBody(
  limits: JsonBodyLimits,
  c: Context,
  usage: string,
  options: { optional?: boolean } = {},
): Promise<Record<string, unknown>> {
  const text = await cappedText(c, limits.jsonBodyBytes);
  if (text.trim() === '' && options.optional) return {};
  if (nestsDeeper(text, limits.jsonBodyDepth)) {
    throw new RouteError(
      400,
      'invalid_input',
      `The body nests arrays and objects deeper than ${limits.jsonBodyDepth} levels (limits.jsonBodyDepth).`,
      { hint: `Send a flatter body: ${usage} as JSON.` },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidInput(usage, 'The body is not a JSON object.');
  }
  return value as Record<string, unknown>;
}

/**
 * `jsonBody`, then `schema` (a request schema of @platform/wire): a body of the wrong shape is
 * 400 `invalid_input` whose message names the first issue's path and whose `issues` are zod's.
 * @example const { code } = await parsedBody(services.limits, c, mfaCodeRequestSchema, CODE_USAGE);
 */
export async function parsedBody<T>(
  limits: JsonBodyLimits,
  c: Context,
  schema: BodySchema<T>,
  usage: string,
  options: { optional?: boolean } = {},
): Promise<T> {
  const body = await jsonBody(limits, c, usage, options);
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const first = issues[0];
  const where = first === undefined || first.path.length === 0 ? 'body' : first.path.map(String).join('.');
  throw new RouteError(400, 'invalid_input', `${where}: ${first?.message ?? 'invalid'}.`, {
    hint: `Send ${usage} as JSON.`,
    issues: issues.map((issue) => ({ path: issue.path, message: issue.message, code: issue.code })),
  });
}

/** 400 `invalid_input`: `message` says what is wrong, the hint shows the body to send. */
export function invalidInput(usage: string, message: string): RouteError {
  return new RouteError(400, 'invalid_input', message, { hint: `Send ${usage} as JSON.` });
}

/** The body as UTF-8 text, reading at most `maxBytes` of it. */
async function cappedText(c: Context, maxBytes: number): Promise<string> {
  const tooLarge = () =>
    new RouteError(
      413,
      'payload_too_large',
      `The body is larger than ${maxBytes} bytes (limits.jsonBodyBytes).`,
      {
        hint: 'Send a smaller body; these routes take a few fields, not data.',
      },
    );
  // A declared size over the limit is refused unread (`_bodyLimit.ts`'s reading of it); any other
  // body is counted here as it streams and cut off at the limit.
  if ((declaredBodySize(c) ?? 0) > maxBytes) throw tooLarge();
  const stream = c.req.raw.body;
  if (stream === null) return '';
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Stops reading here: the server drains or drops the rest, this process never holds it.
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/**
 * Whether `text` opens more than `maxDepth` arrays and objects at once (brackets inside strings
 * do not count): one pass over characters, so a body of brackets costs no parse.
 */
export function nestsDeeper(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return false;
}
