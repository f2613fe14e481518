/** One link of a `Link` header (RFC 8288): its target as written and its relation types, lower case. */
export interface LinkValue {
  readonly url: string;
  readonly rels: readonly string[];
}

/**
 * The links of a `Link` header, in order. Commas and semicolons inside quoted parameters are kept
 * in place; a link without `rel` has no relation types.
 * @example parseLinkHeader('<https://a.test/?page=2>; rel="next", <https://a.test/?page=9>; rel="last"')
 */
export function parseLinkHeader(header: string): LinkValue[] {
  const links: LinkValue[] = [];
  let at = 0;
  while (at < header.length) {
    const open = header.indexOf('<', at);
    if (open === -1) break;
    const close = header.indexOf('>', open);
    if (close === -1) break;
    let end = close + 1;
    let quoted = false;
    for (; end < header.length; end++) {
      const char = header[end];
      if (char === '\\' && quoted) end++;
      else if (char === '"') quoted = !quoted;
      else if (char === ',' && !quoted) break;
    }
    const params = header.slice(close + 1, end);
    const rel = /(?:^|;)\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/i.exec(params);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    links.push({ url: header.slice(open + 1, close).trim(), rels });
    at = end + 1;
  }
  return links;
}

/**
 * The absolute URL of the `rel="next"` link, resolved against the URL the header answered, or
 * undefined when there is none.
 * @example nextLink('</items?page=3>; rel="next"', 'https://a.test/items?page=2') // 'https://a.test/items?page=3'
 */
export function nextLink(header: string | null, base: string): string | undefined {
  if (header === null) return undefined;
  const next = parseLinkHeader(header).find((link) => link.rels.includes('next'));
  return next === undefined ? undefined : new URL(next.url, base).href;
}
