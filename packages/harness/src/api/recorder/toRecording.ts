import {
  type CapabilityFetchRequest,
  type CapabilityFetchResponse,
  capabilityHeader,
} from '@platform/sdk/runtime';
import type { HttpFixture } from '../../types.js';

/** What is kept of one live `ctx.fetch` hop: redacted, ready to become an `HttpFixture`. */
export interface Recording {
  readonly method: string;
  /** Origin and path, fixture-safe (a literal `:x` or `*` segment is escaped). */
  readonly target: string;
  /** The query params that are not secret-like, in order; values with known secrets replaced. */
  readonly query: readonly (readonly [string, string])[];
  readonly response: Omit<HttpFixture, 'request'>;
}

/** What replaces a secret value or a token-like field. */
export const REDACTED = '[redacted]';

// Shorter values are too likely to occur by chance in ordinary text to be replaced everywhere.
const MIN_SECRET_LENGTH = 4;

// Names compared lower-case without `-`, `_` and `.`: `access_token`, `accessToken`, `X-Api-Key`.
const SECRET_WORDS = ['token', 'secret', 'password', 'passwd', 'apikey', 'signature', 'credential', 'cookie'];
const SECRET_NAMES = new Set([
  'key',
  'sig',
  'code',
  'state',
  'auth',
  'authorization',
  'session',
  'sessionid',
  'jwt',
  'otp',
]);

/** Response headers a fixture has no use for: per connection, per response, or implied by the body. */
const NOISE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'date',
  'age',
  'server',
  'via',
  'alt-svc',
  'vary',
  'strict-transport-security',
  'report-to',
  'nel',
]);

/**
 * Whether a header, query param or JSON field name is credential-like: its value is never recorded.
 * @example isSecretLikeName('refresh_token') // true
 */
export function isSecretLikeName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[-_.]/g, '');
  return SECRET_NAMES.has(normalized) || SECRET_WORDS.some((word) => normalized.includes(word));
}

/**
 * One hop as a redacted recording: credential and token-like headers dropped, known secret values
 * and token-like JSON fields replaced, secret-like query params left out. A body that is not text
 * cannot be a fixture: the answer is then the reason it was skipped.
 * @example const recording = toRecording(request, response, ['s3cr3t-value']);
 */
export function toRecording(
  request: CapabilityFetchRequest,
  response: CapabilityFetchResponse,
  knownSecrets: readonly string[],
): Recording | { readonly skipped: string } {
  const secrets = [...knownSecrets, ...requestCredentials(request)]
    .filter((value) => value.length >= MIN_SECRET_LENGTH)
    // Longest first, so a secret containing another is replaced whole.
    .sort((a, b) => b.length - a.length);
  const scrub = (text: string) => secrets.reduce((out, secret) => out.replaceAll(secret, REDACTED), text);

  const url = new URL(request.url);
  const path = url.pathname
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? `%3A${segment.slice(1)}` : segment === '*' ? '%2A' : segment,
    )
    .join('/');
  const query = [...url.searchParams]
    .filter(([name]) => !isSecretLikeName(name))
    .map(([name, value]) => [name, scrub(value)] as const);

  const bytes = Buffer.from(response.body, 'base64');
  let text: string | undefined;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { skipped: `its ${bytes.length}-byte body is not text, and a fixture answers with text or JSON` };
  }
  const contentType = capabilityHeader(response, 'content-type');
  let body: unknown;
  if (text !== '') {
    body = scrub(text);
    if (/\bjson\b/i.test(contentType ?? '')) {
      try {
        body = redactJson(JSON.parse(text), scrub);
      } catch {
        // Declared JSON but not JSON: recorded as the text it is.
      }
    }
  }
  const implied =
    body === undefined ? undefined : typeof body === 'string' ? 'text/plain' : 'application/json';
  const headers: Record<string, string> = {};
  for (const [rawName, value] of response.headers) {
    const name = rawName.toLowerCase();
    if (NOISE_HEADERS.has(name) || name === 'set-cookie' || isSecretLikeName(name)) continue;
    if (name === 'content-type' && (body === undefined || mediaType(value) === implied)) continue;
    headers[name] = name === 'location' ? redactLocation(value, url, scrub) : scrub(value);
  }

  const defaultStatus = body === undefined ? 204 : 200;
  return {
    method: request.method.toUpperCase(),
    target: `${url.origin}${path}`,
    query,
    response: {
      ...(body === undefined ? {} : { response: body }),
      ...(response.status === defaultStatus ? {} : { status: response.status }),
      ...(Object.keys(headers).length === 0 ? {} : { headers }),
    },
  };
}

function redactJson(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, scrub));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = isSecretLikeName(key) && item !== null ? REDACTED : redactJson(item, scrub);
  }
  return out;
}

// A redirect may carry an authorization code or a token in its query: those params go, the rest stays.
function redactLocation(location: string, base: URL, scrub: (text: string) => string): string {
  let url: URL;
  try {
    url = new URL(location, base);
  } catch {
    return scrub(location.replace(/\?.*$/, ''));
  }
  for (const name of [...url.searchParams.keys()]) if (isSecretLikeName(name)) url.searchParams.delete(name);
  url.username = '';
  url.password = '';
  return scrub(url.href);
}

// What the request itself carried as credentials is a secret too, wherever the answer echoes it.
function requestCredentials(request: CapabilityFetchRequest): string[] {
  const values: string[] = [];
  for (const [name, value] of request.headers) {
    if (!isSecretLikeName(name)) continue;
    values.push(value);
    const scheme = /^\s*\S+\s+(\S+)\s*$/.exec(value);
    if (scheme?.[1] !== undefined) values.push(scheme[1]);
  }
  const url = new URL(request.url);
  for (const [name, value] of url.searchParams) if (isSecretLikeName(name)) values.push(value);
  if (url.password !== '') values.push(decodeURIComponent(url.password));
  return values;
}

function mediaType(value: string): string {
  return value.split(';')[0]?.trim().toLowerCase() ?? '';
}
