const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/**
 * A URL as logs and error messages may show it: query replaced by `?...`, userinfo and fragment dropped.
 * @example redactUrl('https://u:p@api.acme.com/v1?token=x') // 'https://api.acme.com/v1?...'
 */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL we can parse: still never let a query string through.
    const text = String(url);
    const query = text.indexOf('?');
    return query === -1 ? text : `${text.slice(0, query)}?...`;
  }
  const query = parsed.search ? '?...' : '';
  const path = parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.pathname : parsed.pathname;
  return `${parsed.protocol}//${parsed.host}${path}${query}`;
}

/**
 * Redacts every URL found in a piece of text.
 * @example redactText('GET https://a.com/x?key=1 failed') // 'GET https://a.com/x?... failed'
 */
export function redactText(text: string): string {
  return text.replace(URL_IN_TEXT, (match) => redactUrl(match));
}

/** Redacts URLs in every string of a log record's fields, at any depth. */
export function redactFields(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (value instanceof Error) return { name: value.name, message: redactText(value.message) };
  if (Array.isArray(value)) return value.map((item) => redactFields(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactFields(item, depth + 1);
  return out;
}
