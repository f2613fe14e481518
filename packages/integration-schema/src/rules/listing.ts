/**
 * The marketplace listing of one `platform.json` integration entry: the optional `name`,
 * `description`, `icon` and `docs` the host's marketplace shows (the slug stands in for a missing
 * name). One rule for `platform validate`, the host's install and the publish gate.
 */

/** The bounds of the listing fields. */
export const LISTING_LIMITS = {
  nameChars: 80,
  descriptionChars: 300,
  /** The docs Markdown file, in bytes (64 KiB). */
  docsBytes: 64 * 1024,
} as const;

/** The listing fields of a `platform.json` integration entry. */
export const LISTING_FIELDS = ['name', 'description', 'icon', 'docs'] as const;

/** The listing fields as written in `platform.json`, checked; `docs` is the path of a Markdown file. */
export interface ListingFields {
  readonly name?: string;
  readonly description?: string;
  readonly icon?: string;
  /** Relative to the project root, normalised (`./docs/a.md` -> `docs/a.md`). */
  readonly docs?: string;
}

/** A listing as the host stores it with a version: the docs file's text in place of its path. */
export interface StoredListing {
  readonly name?: string;
  readonly description?: string;
  readonly icon?: string;
  /** The Markdown text of the `docs` file. */
  readonly docs?: string;
  /** Whether the version's browser bundle exports a `tile` (`platform.json` `tile`). */
  readonly tile?: boolean;
  /** Whether it exports an `activationForm` (`platform.json` `activationForm`). */
  readonly activationForm?: boolean;
}

/** One bad listing field: `field` of the entry, what is wrong, and an imperative `hint`. */
export interface ListingProblem {
  readonly field: (typeof LISTING_FIELDS)[number];
  readonly message: string;
  readonly hint: string;
}

/** How a caller knows the icon set (the CLI and the host each read theirs). */
export interface ListingIconSet {
  has(name: string): boolean;
  /** A free icon to suggest for a name outside the set. */
  suggest?(name: string): string | undefined;
}

/**
 * Checks the listing fields of one `platform.json` integration entry (other keys are ignored) and
 * returns the good ones and a problem per bad one. The docs file itself is the caller's to read;
 * {@link listingDocsSizeProblem} checks its size.
 * @example checkListingFields({ slug: 'acme-notes', name: 'Acme Notes' }, icons) // { listing: { name: 'Acme Notes' }, problems: [] }
 */
export function checkListingFields(
  entry: Readonly<Record<string, unknown>>,
  icons: ListingIconSet,
): { listing: ListingFields; problems: ListingProblem[] } {
  const listing: { -readonly [K in keyof ListingFields]: ListingFields[K] } = {};
  const problems: ListingProblem[] = [];
  const text = (field: 'name' | 'description', max: number, what: string) => {
    const value = entry[field];
    if (value === undefined) return;
    if (typeof value !== 'string' || value.trim() === '' || [...value].length > max) {
      const got = typeof value === 'string' ? `${[...value].length} characters` : typeof value;
      problems.push({
        field,
        message: `"${field}" must be a string of 1 to ${max} characters (got ${got})`,
        hint: `Give "${field}" ${what} of at most ${max} characters, or remove it.`,
      });
      return;
    }
    listing[field] = value.trim();
  };
  text('name', LISTING_LIMITS.nameChars, 'the name people see in the marketplace');
  text('description', LISTING_LIMITS.descriptionChars, 'a sentence or two on what the integration does');

  const icon = entry.icon;
  if (icon !== undefined) {
    if (typeof icon !== 'string' || !icons.has(icon)) {
      const suggestion = typeof icon === 'string' ? icons.suggest?.(icon) : undefined;
      problems.push({
        field: 'icon',
        message:
          typeof icon === 'string'
            ? `"icon" is "${icon}", which is not in the free icon set (Font Awesome Free)`
            : `"icon" must be an icon name (got ${typeof icon})`,
        hint:
          suggestion === undefined
            ? 'Use the kebab-case name of an icon of the free set (Font Awesome Free: solid, regular or brands), such as "note-sticky".'
            : `Use the free icon "${suggestion}" instead, or pick another from the free set.`,
      });
    } else {
      listing.icon = icon;
    }
  }

  const docs = entry.docs;
  if (docs !== undefined) {
    const path = typeof docs === 'string' ? listingDocsPath(docs) : undefined;
    if (path === undefined) {
      problems.push({
        field: 'docs',
        message:
          typeof docs === 'string'
            ? `"docs" is "${docs}"; it must be a relative path to a Markdown file (.md) inside the project`
            : `"docs" must be a string (got ${typeof docs})`,
        hint: 'Set "docs" to a Markdown file of the project, such as "docs/acme-notes.md".',
      });
    } else {
      listing.docs = path;
    }
  }
  return { listing, problems };
}

/**
 * A docs path normalised to a path relative to the project root, or undefined when it is absolute,
 * a URL, leaves the project (`..`), or is not a `.md` file.
 * @example listingDocsPath('./docs/notes.md') // 'docs/notes.md'
 */
export function listingDocsPath(path: string): string | undefined {
  if (path === '' || path.includes('\\') || path.includes('\0')) return undefined;
  if (path.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(path)) return undefined;
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.includes('..')) return undefined;
  const normal = parts.join('/');
  return /\.md$/i.test(normal) ? normal : undefined;
}

/**
 * The problem of a docs file of `bytes` bytes (over {@link LISTING_LIMITS}`.docsBytes`), or of a
 * missing one (`bytes` undefined); undefined when it fits.
 * @example listingDocsSizeProblem('docs/a.md', 1024) // undefined
 */
export function listingDocsSizeProblem(path: string, bytes: number | undefined): ListingProblem | undefined {
  if (bytes === undefined) {
    return {
      field: 'docs',
      message: `"docs" names ${path}, but the project has no such file`,
      hint: `Create ${path}, or fix "docs" to the path of the project's Markdown file.`,
    };
  }
  if (bytes <= LISTING_LIMITS.docsBytes) return undefined;
  return {
    field: 'docs',
    message: `${path} is ${Math.ceil(bytes / 1024)} KiB; the listing docs may be at most ${LISTING_LIMITS.docsBytes / 1024} KiB`,
    hint: `Shorten ${path}: keep what the integration does and asks for, and link to longer docs.`,
  };
}
