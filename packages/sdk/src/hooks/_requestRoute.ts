import type { ValidationIssue } from '../runtime/_validate.js';
import type { DevError } from '../runtime/envelope.js';
import { CLIENT_ERROR_CODES, type IntegrationRequestErrorInit } from './IntegrationActionError.js';

/** The `fetch` the client functions call: `globalThis.fetch` or the one an `IntegrationFetchProvider` gives. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export type RouteResult =
  | { readonly ok: true; readonly data: unknown; readonly status: number }
  | { readonly ok: false; readonly error: IntegrationRequestErrorInit };

/**
 * `GET` of one of an integration's JSON routes, same-origin credentials, with `fetch` defaulting
 * to `globalThis.fetch` at call time; the envelope is read by {@link requestRoute}.
 */
export function getRoute(
  url: string,
  options: { readonly fetch?: FetchFunction | undefined; readonly signal?: AbortSignal | undefined },
  what: string,
): Promise<RouteResult> {
  return requestRoute(
    options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    url,
    {
      method: 'GET',
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
    what,
  );
}

/**
 * Calls one of an integration's JSON routes and reads its envelope (`{ ok: true, data }` or
 * `{ ok: false, error: { code, message, issues?, devError? } }`). Never throws: a request that
 * fails is `network_error` (status 0), a body that is not the envelope is `invalid_response`.
 * `what` names the call in messages, e.g. `Action "create-note" of "acme-notes"`.
 */
export async function requestRoute(
  fetchFn: FetchFunction,
  url: string,
  init: RequestInit,
  what: string,
): Promise<RouteResult> {
  let response: Response;
  try {
    response = await fetchFn(url, init);
  } catch (cause) {
    return failure({
      code: CLIENT_ERROR_CODES.networkError,
      status: 0,
      message: `${what} never reached the server (${describeThrown(cause)}). Check the network connection and try again.`,
      cause,
    });
  }

  const invalid = (reason: string, cause?: unknown) =>
    failure({
      code: CLIENT_ERROR_CODES.invalidResponse,
      status: response.status,
      message: `${what} answered HTTP ${response.status} with ${reason}; expected the JSON envelope { ok: true, data } or { ok: false, error: { code, message } }.`,
      cause,
    });

  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    return invalid(`a body that could not be read (${describeThrown(cause)})`, cause);
  }
  if (text.trim() === '') return invalid('an empty body');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    return invalid('a body that is not JSON', cause);
  }

  const envelope = readEnvelope(body);
  if (envelope === null) return invalid('JSON that is not the envelope');
  if (envelope.ok) {
    if (!response.ok) return invalid('a success envelope under an error status');
    return { ok: true, data: envelope.data, status: response.status };
  }
  return failure({ ...envelope.error, status: response.status });
}

type Envelope =
  | { readonly ok: true; readonly data: unknown }
  | {
      readonly ok: false;
      readonly error: {
        code: string;
        message: string;
        issues?: readonly ValidationIssue[];
        devError?: DevError;
      };
    };

function readEnvelope(body: unknown): Envelope | null {
  if (!isRecord(body)) return null;
  if (body.ok === true) return Object.hasOwn(body, 'data') ? { ok: true, data: body.data } : null;
  if (body.ok !== false || !isRecord(body.error)) return null;
  const { code, message, issues, devError } = body.error;
  if (typeof code !== 'string' || code === '' || typeof message !== 'string') return null;
  if (issues !== undefined && !(Array.isArray(issues) && issues.every(isIssue))) return null;
  return {
    ok: false,
    error: {
      code,
      message,
      ...(issues === undefined ? {} : { issues: issues as ValidationIssue[] }),
      // devError is a development aid: a malformed one is dropped rather than failing the call.
      ...(isDevError(devError) ? { devError } : {}),
    },
  };
}

function isIssue(value: unknown): boolean {
  return isRecord(value) && typeof value.message === 'string' && Array.isArray(value.path);
}

function isDevError(value: unknown): value is DevError {
  return (
    isRecord(value) &&
    typeof value.message === 'string' &&
    (value.stack === undefined || typeof value.stack === 'string')
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeThrown(thrown: unknown): string {
  return thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
}

function failure(error: IntegrationRequestErrorInit): RouteResult {
  return { ok: false, error };
}
