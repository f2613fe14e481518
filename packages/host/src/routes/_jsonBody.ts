import type { Context } from 'hono';
import { RouteError } from './_errors.js';

/**
 * The request's JSON object body, or 400 `invalid_input` whose hint shows `usage` (an example
 * body). `optional`: no body at all reads as `{}`.
 * @example const body = await jsonBody(c, '{ "code": "123456" }');
 */
export async function jsonBody(
  c: Context,
  usage: string,
  options: { optional?: boolean } = {},
): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === '' && options.optional) return {};
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

/** 400 `invalid_input`: `message` says what is wrong, the hint shows the body to send. */
export function invalidInput(usage: string, message: string): RouteError {
  return new RouteError(400, 'invalid_input', message, { hint: `Send ${usage} as JSON.` });
}
