import type { StoredListing } from '@platform/integration-schema';
import type { DefinitionManifest } from '@platform/sdk/runtime';
import type { Queryable } from '../db/Db.js';
import { sourceServesAccountSql } from './integrations.js';

/** An integration whose live version a source serving the account offers, as the marketplace lists it. */
export interface MarketplaceEntry {
  readonly slug: string;
  readonly listing: StoredListing;
  /** The source's name. */
  readonly publisher: string;
  readonly live: { readonly id: string; readonly number: number; readonly manifest: DefinitionManifest };
  /** The account's activation, with the version it consented to (none for activations older than 0012). */
  readonly activation?: {
    readonly activatedAt: Date;
    readonly consented?: {
      readonly id: string;
      readonly number: number;
      readonly manifest: DefinitionManifest;
    };
  };
}

const MARKETPLACE_SQL = (oneSlug: boolean) => `
SELECT i.slug, s.name AS publisher, v.id AS live_id, v.number AS live_number,
       ${oneSlug ? 'v.listing' : "v.listing - 'docs'"} AS listing,
       ${oneSlug ? 'v.manifest' : 'NULL'} AS live_manifest,
       a.activated_at, c.id AS consented_id, c.number AS consented_number,
       ${oneSlug ? 'c.manifest' : 'NULL'} AS consented_manifest
FROM integrations i
JOIN versions v ON v.id = i.live_version_id
JOIN sources s ON s.id = i.source_id
LEFT JOIN activations a ON a.integration_slug = i.slug AND a.account_id = $1
LEFT JOIN versions c ON c.id = a.consented_version_id
WHERE ${sourceServesAccountSql('i.source_id', '$1')}${oneSlug ? ' AND i.slug = $2' : ''}
ORDER BY i.slug`;

/**
 * Every integration the account can see in the marketplace: a live version, on a source that
 * serves the account (`sourceServesAccountSql`, the one tenancy rule). The list leaves the
 * manifests and the docs out (`manifest` is `{}`); {@link marketplaceEntry} reads one with them.
 */
export async function marketplaceEntries(db: Queryable, accountId: string): Promise<MarketplaceEntry[]> {
  const { rows } = await db.query(MARKETPLACE_SQL(false), [accountId]);
  return rows.map(toEntry);
}

/** One integration of {@link marketplaceEntries}, with its live and consented manifests; undefined when unseen. */
export async function marketplaceEntry(
  db: Queryable,
  accountId: string,
  slug: string,
): Promise<MarketplaceEntry | undefined> {
  const { rows } = await db.query(MARKETPLACE_SQL(true), [accountId, slug]);
  return rows[0] === undefined ? undefined : toEntry(rows[0]);
}

function toEntry(row: Record<string, unknown>): MarketplaceEntry {
  const manifest = (value: unknown) => (value ?? {}) as DefinitionManifest;
  const consented =
    row.consented_id === null || row.consented_id === undefined
      ? undefined
      : {
          id: row.consented_id as string,
          number: row.consented_number as number,
          manifest: manifest(row.consented_manifest),
        };
  return {
    slug: row.slug as string,
    listing: (row.listing ?? {}) as StoredListing,
    publisher: row.publisher as string,
    live: {
      id: row.live_id as string,
      number: row.live_number as number,
      manifest: manifest(row.live_manifest),
    },
    ...(row.activated_at === null || row.activated_at === undefined
      ? {}
      : {
          activation: {
            activatedAt: row.activated_at as Date,
            ...(consented === undefined ? {} : { consented }),
          },
        }),
  };
}
