import { StorageConflictError } from '@platform/sdk/integration';
import { type RunResult, STORAGE_CONFLICT_MESSAGE } from '@platform/sdk/runtime';
import type { Context } from 'hono';
import { errorResponse } from '../_errors.js';
import type { HarnessCall, HarnessEnv } from '../_harnessApi.js';
import { isVariant, variantMessage } from '../_toolbar.js';
import type { OpenedCall } from '../openCall.js';

// What the Triggers surface's routes share: the body, the variant it may name, and the answer
// `{ ok: true, data: { ...extra, mode, variant, result, logs, storage: { before, after } } }`. A
// handler that fails is `result: { ok: false, error }` in a 200: the trigger itself worked.

/**
 * Runs a trigger's handler on an opened call, saves its writes when it succeeded (as the host
 * does), and answers with its result, logs and storage around it. A storage conflict is
 * `result: { ok: false, error: { code: 'conflict' } }`: the host would retry the run.
 */
export async function runTrigger(
  c: Context<HarnessEnv>,
  call: HarnessCall,
  opened: OpenedCall,
  handler: (ctx: OpenedCall['ctx']) => Promise<RunResult>,
  extra: Record<string, unknown>,
): Promise<Response> {
  const before = await opened.snapshot();
  let result = await handler(opened.ctx);
  const conflict: RunResult = { ok: false, error: { code: 'conflict', message: STORAGE_CONFLICT_MESSAGE } };
  if (!result.ok && opened.conflict() !== undefined) result = conflict;
  if (result.ok) {
    try {
      await opened.commit();
    } catch (error) {
      if (!(error instanceof StorageConflictError)) throw error;
      result = conflict;
    }
  }
  const after = await opened.snapshot();
  return c.json({
    ok: true,
    data: {
      ...extra,
      mode: call.mode,
      variant: call.variant,
      result,
      logs: opened.logs,
      storage: { before, after },
    },
  });
}

export type TriggerBody = Record<string, unknown>;

/** A JSON object body (empty counts as `{}`) with only the named fields, or the 400 answer saying what is wrong. */
export async function readBody(
  c: Context<HarnessEnv>,
  fields: readonly string[],
): Promise<{ ok: true; value: TriggerBody } | { ok: false; response: Response }> {
  const text = await c.req.text();
  let value: unknown = {};
  try {
    if (text.trim() !== '') value = JSON.parse(text);
  } catch {
    return { ok: false, response: errorResponse(c, 400, 'invalid_input', 'The body is not JSON.') };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, response: errorResponse(c, 400, 'invalid_input', 'The body must be a JSON object.') };
  }
  const unknown = Object.keys(value).filter((key) => !fields.includes(key));
  if (unknown.length > 0) {
    return {
      ok: false,
      response: errorResponse(
        c,
        400,
        'invalid_input',
        `Unknown field${unknown.length === 1 ? '' : 's'} ${unknown.map((key) => `"${key}"`).join(', ')}; this route takes ${fields.map((key) => `"${key}"`).join(', ')}.`,
      ),
    };
  }
  return { ok: true, value: value as TriggerBody };
}

/** The call under the body's `variant` (it wins over the toolbar header), or undefined when it names none of the variants. */
export function withVariant(call: HarnessCall, variant: unknown): HarnessCall | undefined {
  if (variant === undefined) return call;
  return isVariant(variant) ? { ...call, variant } : undefined;
}

/** The 400 answer for a body `variant` that is not one. */
export function invalidVariant(c: Context<HarnessEnv>, variant: unknown): Response {
  return errorResponse(c, 400, 'invalid_input', variantMessage(variant, '"variant"'));
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** An ISO 8601 time, normalised to UTC, or `now` when absent; undefined when it is not one. */
export function readTime(value: unknown, now: Date): string | undefined {
  if (value === undefined) return now.toISOString();
  if (typeof value !== 'string' || !ISO_TIME.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
