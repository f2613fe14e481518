import { open, realpath } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import {
  checkListingFields,
  LISTING_LIMITS,
  type ListingProblem,
  listingDocsSizeProblem,
  type StoredListing,
} from '@platform/integration-schema';
import { isFreeIconName, suggestFreeIconName } from '@platform/ui/icons';

export type { ListingProblem, StoredListing };

// Listing icons are bare kebab-case names of @platform/ui's free set (what its Icon draws).
const ICONS = {
  has: (name: string) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(name) && isFreeIconName(name),
  suggest: suggestFreeIconName,
};

/**
 * The marketplace listing of one `platform.json` integration entry of the project in `projectDir`,
 * by integration-schema's one rule (`checkListingFields`, as `platform validate` applies it), with
 * the `docs` file's Markdown read in (at most 64 KiB, and only from inside the project: a link out
 * of it counts as missing). Install and the gate store `listing` with the version; `problems` are
 * what they refuse.
 * @example const { listing, problems } = await readProjectListing(projectDir, { slug: 'acme-notes', name: 'Acme Notes' });
 */
export async function readProjectListing(
  projectDir: string,
  entry: Readonly<Record<string, unknown>>,
): Promise<{ listing: StoredListing; problems: ListingProblem[] }> {
  const { listing, problems } = checkListingFields(entry, ICONS);
  const { docs: path, ...fields } = listing;
  if (path === undefined) return { listing: fields, problems };
  const text = await readInside(projectDir, path);
  const problem = listingDocsSizeProblem(path, text?.bytes);
  if (problem !== undefined || text === undefined) {
    return { listing: fields, problems: [...problems, ...(problem === undefined ? [] : [problem])] };
  }
  return { listing: { ...fields, docs: text.markdown }, problems };
}

// Sized first: a file over the limit is never read.
async function readInside(
  projectDir: string,
  path: string,
): Promise<{ bytes: number; markdown: string } | undefined> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    const root = await realpath(projectDir);
    const real = await realpath(resolve(root, path));
    const inside = relative(root, real);
    if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`)) return undefined;
    file = await open(real, 'r');
  } catch {
    return undefined;
  }
  try {
    const stat = await file.stat();
    if (!stat.isFile()) return undefined;
    if (stat.size > LISTING_LIMITS.docsBytes) return { bytes: stat.size, markdown: '' };
    return { bytes: stat.size, markdown: await file.readFile('utf8') };
  } finally {
    await file.close();
  }
}
