// Fixture request strings (`GET https://api.acme.com/v1/notes/:id`) are parsed and matched here so that the mock
// context's `fetchHandlers[].match` and the local harness's HTTP fixtures agree on exactly what a fixture matches.
// Plain WHATWG `URL` only: this also runs in browsers.

const METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

// Restricting names to identifiers keeps typos like `:note-id` or `:` from silently becoming odd capture keys.
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * One path segment of a parsed fixture: an exact (decoded) literal, a `:param` capture, or the trailing `*` rest.
 * @example const segment: FixtureSegment = { kind: 'param', name: 'id' };
 */
export type FixtureSegment =
  | { readonly kind: 'literal'; readonly value: string }
  | { readonly kind: 'param'; readonly name: string }
  | { readonly kind: 'rest' };

/**
 * A parsed fixture request string, ready for {@link matchFixtureRequest}.
 * @example const fixture: FixtureRequest = parseFixtureRequest('GET /v1/notes/:id', { egress: ['https://api.acme.com'] });
 */
export interface FixtureRequest {
  /** Upper-case method, or `null` for a bare target, which matches any method. */
  readonly method: string | null;
  /** As `URL#origin` spells it (lower-case host, default port dropped), so plain string equality is origin equality. */
  readonly origin: string;
  /**
   * Structured rather than raw strings so a literal colon or star (written `%3A` / `%2A`) can never be mistaken
   * for a `:param` or `*`.
   */
  readonly segments: readonly FixtureSegment[];
  /** `null` when the fixture has no `?`: the request's query is then ignored entirely. */
  readonly query: ReadonlyMap<string, string> | null;
  /** The fixture string as written, for error messages. */
  readonly source: string;
}

/**
 * Parses `<METHOD> <target>` (or a bare `<target>` when allowed), throwing an Error that names the fixture and the fix.
 * @example parseFixtureRequest('get /v1/notes/:id?limit=10', { egress: ['https://api.acme.com'] });
 */
export function parseFixtureRequest(
  spec: string,
  options: { readonly egress: readonly string[]; readonly allowBareTarget?: boolean },
): FixtureRequest {
  const parts = spec.trim().split(/\s+/);
  const [first = '', second, ...extra] = parts;
  if (first === '')
    throw fixtureError(spec, 'it is empty; expected "<METHOD> <target>", e.g. "GET /v1/notes".');
  if (extra.length > 0) {
    throw fixtureError(spec, 'expected "<METHOD> <target>"; the target must not contain whitespace.');
  }

  let method: string | null = null;
  let target: string;
  if (second !== undefined) {
    method = first.toUpperCase();
    if (!METHODS.includes(method)) {
      throw fixtureError(
        spec,
        `unknown method ${JSON.stringify(first)}; expected one of ${METHODS.join(', ')}.`,
      );
    }
    target = second;
  } else if (METHODS.includes(first.toUpperCase())) {
    throw fixtureError(spec, `the target is empty; write e.g. "${first} /v1/notes".`);
  } else if (options.allowBareTarget === true) {
    target = first;
  } else {
    throw fixtureError(spec, `it has no method; write e.g. "GET ${first}".`);
  }

  const url = target.startsWith('/')
    ? resolvePathOnly(spec, method, target, options.egress)
    : parseAbsolute(spec, target);
  if (target.includes('#')) {
    throw fixtureError(spec, 'remove the "#fragment": fragments are never sent to a server.');
  }

  return {
    method,
    origin: url.origin,
    segments: parseSegments(spec, url.pathname),
    // `url.search` is '' for both "no ?" and a bare trailing "?", so the raw target decides whether a query was given.
    query: target.includes('?') ? parseQuery(spec, url.searchParams) : null,
    source: spec,
  };
}

/**
 * Matches a request against a parsed fixture, returning the captured `:param` values (decoded) or `null`.
 * @example matchFixtureRequest(fixture, { method: 'GET', url: 'https://api.acme.com/v1/notes/42' }); // { params: { id: '42' } }
 */
export function matchFixtureRequest(
  fixture: FixtureRequest,
  request: { readonly method: string; readonly url: string },
): { params: Record<string, string> } | null {
  if (fixture.method !== null && fixture.method !== request.method.toUpperCase()) return null;

  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    // An unparseable request URL matches nothing; the caller reports "no fixture matched" with the URL in hand.
    return null;
  }
  if (url.origin !== fixture.origin) return null;

  const captured = matchSegments(fixture.segments, splitPath(url.pathname).map(decodeSegment));
  if (captured === null) return null;

  if (fixture.query !== null) {
    for (const [name, value] of fixture.query) {
      // Any occurrence of a repeated request param may satisfy the fixture: extra request params are fine anyway.
      if (!url.searchParams.getAll(name).includes(value)) return null;
    }
  }
  // fromEntries defines own properties, so a param named `__proto__` cannot touch the prototype.
  return { params: Object.fromEntries(captured) };
}

/**
 * Returns the first entry whose fixture matches the request (first match wins), with its captured params, or `null`.
 * @example findFixture(handlers, (h) => h.match, { method: 'GET', url: 'https://api.acme.com/v1/notes/42' });
 */
export function findFixture<T>(
  entries: readonly T[],
  toSpec: (entry: T) => FixtureRequest,
  request: { readonly method: string; readonly url: string },
): { entry: T; params: Record<string, string> } | null {
  for (const entry of entries) {
    const match = matchFixtureRequest(toSpec(entry), request);
    if (match !== null) return { entry, params: match.params };
  }
  return null;
}

function fixtureError(spec: string, reason: string): Error {
  return new Error(`Invalid fixture request ${JSON.stringify(spec)}: ${reason}`);
}

function resolvePathOnly(
  spec: string,
  method: string | null,
  target: string,
  egress: readonly string[],
): URL {
  const fix = `use an absolute URL instead, e.g. "${method ?? 'GET'} https://<host>${target}".`;
  const only = egress.length === 1 ? egress[0] : undefined;
  if (only === undefined) {
    throw fixtureError(
      spec,
      `a path-only target needs exactly one egress origin to resolve against, but egress is ${JSON.stringify(egress)}; ${fix}`,
    );
  }
  if (only.includes('*')) {
    throw fixtureError(
      spec,
      `a path-only target cannot resolve against the wildcard egress origin in ${JSON.stringify(egress)}; ${fix}`,
    );
  }
  let origin: string;
  try {
    origin = new URL(only).origin;
  } catch {
    throw fixtureError(spec, `the egress origin ${JSON.stringify(only)} is not a valid URL; ${fix}`);
  }
  // Concatenating rather than `new URL(target, origin)` keeps `//other.host/x` a path on the egress origin instead of
  // letting it switch hosts as a protocol-relative reference.
  return new URL(origin + target);
}

function parseAbsolute(spec: string, target: string): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw fixtureError(
      spec,
      `${JSON.stringify(target)} is not a valid URL; use an absolute http(s) URL or a path starting with "/".`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fixtureError(spec, `only http: and https: URLs can be fetched, not ${url.protocol}.`);
  }
  // WHATWG URL accepts `*` in a host, but fixtures match one concrete origin; a wildcard here would never match.
  if (url.hostname.includes('*')) {
    throw fixtureError(spec, 'the host cannot be a wildcard; write one fixture per concrete host.');
  }
  return url;
}

// Trailing-slash choice: `/a/b/` and `/a/b` yield the same segments (one empty trailing segment is dropped). Servers
// may distinguish them, but a fixture that silently misses over a slash is the worse surprise in tests.
function splitPath(pathname: string): string[] {
  const segments = pathname.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  return segments;
}

// Both sides are decoded the same way, so `%41` and `A`, or `%C3%A9` and `é`, compare equal. Splitting happens
// before decoding, so an encoded `%2F` stays inside its segment. Malformed escapes compare raw instead of throwing.
function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

// Markers are recognised on the still-encoded segment, which is what lets `%3Aid` / `%2A` mean a literal `:id` / `*`.
function parseSegments(spec: string, pathname: string): FixtureSegment[] {
  const raw = splitPath(pathname);
  const seen = new Set<string>();
  return raw.map((segment, index): FixtureSegment => {
    if (segment === '*') {
      // A middle `*` is rejected rather than guessed at (one segment? many?); `:param` covers the one-segment case.
      if (index !== raw.length - 1) {
        throw fixtureError(
          spec,
          '"*" is only allowed as the last path segment; use a ":param" for one segment.',
        );
      }
      return { kind: 'rest' };
    }
    if (segment.startsWith(':')) {
      const name = segment.slice(1);
      if (!PARAM_NAME.test(name)) {
        throw fixtureError(spec, `${JSON.stringify(segment)} is not a valid ":param" (letters, digits, _).`);
      }
      if (seen.has(name)) throw fixtureError(spec, `the param ":${name}" appears twice.`);
      seen.add(name);
      return { kind: 'param', name };
    }
    return { kind: 'literal', value: decodeSegment(segment) };
  });
}

function parseQuery(spec: string, params: URLSearchParams): Map<string, string> {
  const query = new Map<string, string>();
  for (const [name, value] of params) {
    if (query.has(name)) throw fixtureError(spec, `the query param "${name}" appears twice.`);
    query.set(name, value);
  }
  return query;
}

function matchSegments(
  fixture: readonly FixtureSegment[],
  actual: readonly string[],
): Array<[string, string]> | null {
  const captured: Array<[string, string]> = [];
  for (const [index, segment] of fixture.entries()) {
    // `*` is last by construction and may match zero segments, so it ends the comparison successfully.
    if (segment.kind === 'rest') return captured;
    const value = actual[index];
    if (value === undefined) return null;
    if (segment.kind === 'param') {
      // A param stands for a value; an empty segment (`/notes//x`) is not one.
      if (value === '') return null;
      captured.push([segment.name, value]);
    } else if (segment.value !== value) {
      return null;
    }
  }
  return actual.length === fixture.length ? captured : null;
}
