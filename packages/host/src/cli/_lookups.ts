import type { Queryable } from '../db/Db.js';
import { findSource, type Source } from '../store/integrations.js';
import { findAccount, findUserByEmail, type User, unknownAccount } from '../store/users.js';
import { CliError } from './CliError.js';

// Lookups of what an admin command refers to: each unknown entity is a `not_found` whose hint
// names the command that creates it.

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// The shape of the ids the host assigns (`randomUUID()`): accounts and sources are named by id or
// slug, so a slug of this shape could name another entity.
const ID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+$/;
export const cmd = (words: string) => `\`platform-host admin ${words}\``;

export function checkSlug(kind: string, slug: string): void {
  if (!SLUG.test(slug)) {
    throw new CliError(
      'usage',
      `${kind} slug "${slug}" is not kebab-case.`,
      'Use lowercase letters and digits separated by single hyphens, for example "acme-eu".',
    );
  }
  if (ID_SHAPE.test(slug)) {
    throw new CliError(
      'usage',
      `${kind} slug "${slug}" has the shape of an id; ${kind.toLowerCase()}s are named by id or slug, so it would be ambiguous.`,
      'Pick a slug that says what it is, for example "acme-eu".',
    );
  }
}

export async function requireUser(db: Queryable, email: string): Promise<User> {
  const user = await findUserByEmail(db, email);
  if (user === undefined) {
    throw new CliError(
      'not_found',
      `No user with email ${email}.`,
      `Create it with ${cmd(`user create --email ${email} --name <name>`)}.`,
    );
  }
  return user;
}

export async function requireAccount(
  db: Queryable,
  slugOrId: string,
): Promise<{ id: string; slug: string; name: string }> {
  const account = await findAccount(db, slugOrId);
  if (account === undefined) {
    throw new CliError(
      'not_found',
      `${unknownAccount(slugOrId)}.`,
      SLUG.test(slugOrId) && !ID_SHAPE.test(slugOrId)
        ? `Check the id or slug, or create it with ${cmd(`account create --slug ${slugOrId} --name <name>`)}.`
        : `Check the id or slug (${cmd('account create')} prints both), or create the account with ${cmd('account create --slug <slug> --name <name>')}.`,
    );
  }
  return account;
}

export async function requireSource(db: Queryable, slugOrId: string): Promise<Source> {
  const source = await findSource(db, slugOrId);
  if (source === undefined) {
    throw new CliError(
      'not_found',
      `No source "${slugOrId}".`,
      `Create it with ${cmd(`source create --slug ${slugOrId} --name <name> --stage development`)}.`,
    );
  }
  return source;
}

export async function requireIntegration(
  db: Queryable,
  slug: string,
): Promise<{ slug: string; sourceId: string }> {
  const { rows } = await db.query('SELECT slug, source_id FROM integrations WHERE slug = $1', [slug]);
  const row = rows[0];
  if (row === undefined) {
    throw new CliError(
      'not_found',
      `No integration "${slug}" on this host.`,
      'Install it first with `platform-host install <projectDir>`.',
    );
  }
  return { slug: row.slug as string, sourceId: row.source_id as string };
}
