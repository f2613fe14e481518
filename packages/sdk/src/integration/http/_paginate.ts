import { redactUrl } from '../../runtime/redact.js';
import { nextLink } from './_linkHeader.js';
import type { VendorPaginateOptions, VendorQuery } from './types.js';

/** One GET of a listing: the response, the URL it answered and its parsed JSON body. */
export interface JsonPage {
  readonly response: Response;
  readonly url: string;
  readonly body: unknown;
}

/** What pagination needs of the client: URLs on its base, and one GET with retries. */
export interface PageSource {
  resolve(path: string, query: VendorQuery | undefined): URL;
  get(url: URL, headers: Readonly<Record<string, string>> | undefined): Promise<JsonPage>;
}

const DEFAULT_MAX_PAGES = 1000;

/**
 * The pages of one listing in the style `options` names, each page's items yielded as an array
 * (pages without items skipped). Throws past `maxPages`, and when the vendor names a page it has
 * already sent (a `Link` or a cursor that goes round in circles).
 */
export async function* paginate<T, B>(
  name: string,
  path: string,
  options: VendorPaginateOptions<T, B>,
  source: PageSource,
): AsyncGenerator<T[], void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  if (!Number.isInteger(maxPages) || maxPages < 1) {
    throw new TypeError(
      `${name}: paginate maxPages must be an integer of at least 1; got ${String(maxPages)}`,
    );
  }
  let pages = 0;
  const read = async (url: URL) => {
    if (pages >= maxPages) {
      throw new Error(
        `${name}: paginate read ${maxPages} pages of GET ${redactUrl(url)} and the vendor names more; pass a larger maxPages or narrow the query`,
      );
    }
    pages++;
    const page = await source.get(url, options.headers);
    return { ...page, items: itemsOf(name, options, page) };
  };
  const circle = (url: URL) =>
    new Error(`${name}: paginate of GET ${redactUrl(url)} was sent back to a page it already read; stopped`);

  switch (options.style) {
    case 'link': {
      let url = source.resolve(path, options.query);
      const seen = new Set<string>();
      for (;;) {
        seen.add(url.href);
        const page = await read(url);
        if (page.items.length > 0) yield page.items;
        const next = nextLink(page.response.headers.get('link'), page.response.url || page.url);
        if (next === undefined) return;
        // Resolved like any path: a next page on another origin is refused, not followed.
        url = source.resolve(next, undefined);
        if (seen.has(url.href)) throw circle(url);
      }
    }
    case 'page': {
      const pageParam = options.pageParam ?? 'page';
      const { size, sizeParam } = options;
      if (size !== undefined && (!Number.isInteger(size) || size < 1)) {
        throw new TypeError(`${name}: paginate size must be an integer of at least 1; got ${String(size)}`);
      }
      if (sizeParam !== undefined && size === undefined) {
        throw new TypeError(
          `${name}: paginate sizeParam "${sizeParam}" needs size, the number of items to ask for`,
        );
      }
      for (let number = options.start ?? 1; ; number++) {
        const query = {
          ...options.query,
          [pageParam]: number,
          ...(sizeParam === undefined ? {} : { [sizeParam]: size }),
        };
        const page = await read(source.resolve(path, query));
        if (page.items.length === 0) return;
        yield page.items;
        if (size !== undefined && page.items.length < size) return;
      }
    }
    case 'cursor': {
      const cursorParam = options.cursorParam ?? 'cursor';
      if (typeof options.nextCursor !== 'function') {
        throw new TypeError(
          `${name}: paginate style 'cursor' needs nextCursor: (body) => the next page's cursor, or undefined on the last page`,
        );
      }
      const seen = new Set<string>();
      let cursor = options.start;
      for (;;) {
        const url = source.resolve(
          path,
          cursor === undefined ? options.query : { ...options.query, [cursorParam]: cursor },
        );
        const page = await read(url);
        if (page.items.length > 0) yield page.items;
        const next = options.nextCursor(page.body as B);
        if (next === undefined || next === null || next === '') return;
        if (typeof next !== 'string') {
          throw new TypeError(
            `${name}: paginate nextCursor must answer a string or undefined; got ${typeof next}`,
          );
        }
        if (next === cursor || seen.has(next)) throw circle(url);
        if (cursor !== undefined) seen.add(cursor);
        cursor = next;
      }
    }
    default:
      throw new TypeError(
        `${name}: paginate style must be 'link', 'page' or 'cursor'; got ${JSON.stringify((options as { style?: unknown }).style)}`,
      );
  }
}

function itemsOf<T, B>(name: string, options: VendorPaginateOptions<T, B>, page: JsonPage): T[] {
  const items = options.items === undefined ? page.body : options.items(page.body as B);
  if (!Array.isArray(items)) {
    throw new TypeError(
      `${name}: the page GET ${redactUrl(page.url)} answered holds no list of items; pass items: (body) => body.<the field holding them> to paginate`,
    );
  }
  return [...(items as readonly T[])];
}
