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
    // Not a URL we can parse: still never let credentials, a query or a fragment through. The
    // authority runs to the first "/", so a "?" inside a password is still taken as userinfo.
    const text = String(url)
      .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/]*@/i, '$1')
      .replace(/#.*$/, '');
    const query = text.indexOf('?');
    return query === -1 ? text : `${text.slice(0, query)}?...`;
  }
  // An opaque URL (data:, mailto:) has no host to show, and its content may be anything.
  if (parsed.host === '' && !parsed.href.startsWith(`${parsed.protocol}//`)) return `${parsed.protocol}...`;
  const query = parsed.search ? '?...' : '';
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}${query}`;
}

/**
 * Redacts every URL found in a piece of text.
 * @example redactText('GET https://a.com/x?key=1 failed') // 'GET https://a.com/x?... failed'
 */
export function redactText(text: string): string {
  return text.replace(URL_IN_TEXT, (match) => {
    // Punctuation that closes the sentence around a URL is not part of it; an already redacted
    // query (`?...`) is kept, so redacting twice changes nothing.
    const [, url = match, redacted = '', trailing = ''] =
      /^(.*?)(\?\.\.\.)?([).,;:!\]}]*)$/s.exec(match) ?? [];
    return redactUrl(url + redacted) + trailing;
  });
}

/** Redacts URLs in every string of a log record's fields; what is too deep to read is dropped. */
export function redactFields(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 8) return '[too deep to log]';
  if (value instanceof Error) return { name: value.name, message: redactText(value.message) };
  if (Array.isArray(value)) return value.map((item) => redactFields(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactFields(item, depth + 1);
  return out;
}
