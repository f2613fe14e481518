// The two names the harness puts in URLs: the entry slug (`/<slug>`, `/api/integrations/<slug>/...`)
// and the widget id (`/<slug>/widgets/<id>`). Both must stand in a path as written, unencoded.

const HARNESS_SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
// RFC 3986 unreserved characters: the ones a path segment carries without percent-encoding.
const URL_SEGMENT = /^[A-Za-z0-9._~-]+$/;

// `/api/...` is the shell's API namespace: an entry page at `/api` would be shadowed by it.
const RESERVED_SLUGS: readonly string[] = ['api'];

/** The problem with a harness slug, or `undefined` when it is valid. */
export function harnessSlugProblem(slug: string): string | undefined {
  if (!HARNESS_SLUG.test(slug)) {
    return `"${slug}" is not a valid harness slug (it is a URL segment: /${encodeURIComponent(slug)}); start with a letter or digit and use only letters, digits, ".", "_" and "-", for example "${suggestSlug(slug)}".`;
  }
  if (RESERVED_SLUGS.includes(slug)) {
    return `"${slug}" is reserved: /${slug}/... is the harness's API path; choose another slug, for example "${slug}-demo".`;
  }
  return undefined;
}

/** The problem with a widget id as the `<id>` of `/<slug>/widgets/<id>`, or `undefined`. */
export function widgetIdProblem(id: string): string | undefined {
  if (id === '.' || id === '..') {
    return `"${id}" is not usable as a URL segment (browsers resolve it as a relative path); use a name such as "notes-board".`;
  }
  if (!URL_SEGMENT.test(id)) {
    return `"${id}" is not usable as a URL segment in /<slug>/widgets/<id>; use only letters, digits, ".", "_", "~" and "-", for example "${suggestSlug(id)}".`;
  }
  return undefined;
}

function suggestSlug(value: string): string {
  const cleaned = value
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '');
  return cleaned === '' ? 'acme-notes' : cleaned;
}
