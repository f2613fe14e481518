import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Host } from '../createHost.js';
import {
  addMembership,
  createAccount,
  createToken,
  createUser,
  findAccount,
  findUserByEmail,
  userForToken,
} from '../store/users.js';

export const DEMO_EMAIL = 'demo@platform.local';
export const DEMO_ACCOUNT_SLUG = 'demo';
export const DEMO_TOKEN_FILE = 'demo-token';

/** The demo identity `serve` prints: what a first start created, what later starts find again. */
export interface DemoSeed {
  /** True on the first start, when the user, account, membership and token were created. */
  readonly created: boolean;
  readonly userId: string;
  readonly email: string;
  /** The generated sign-in password: known only on the first start (only its hash is stored). */
  readonly password: string | undefined;
  readonly accountId: string;
  readonly accountSlug: string;
  readonly token: string;
  readonly tokenFile: string;
  /** The saved token was missing or no longer valid, so a new one was issued. */
  readonly tokenReissued: boolean;
}

async function readSavedToken(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function saveToken(file: string, token: string): Promise<void> {
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  // `mode` applies only when the file is created; an older file keeps its mode otherwise.
  await chmod(file, 0o600);
}

/**
 * The demo user (`demo@platform.local`), account `demo` (the user owns it) and a bearer token,
 * created once. The token's secret is kept in `<dataDir>/demo-token` (mode 0600), since the
 * database holds only its hash; a later start reads it back instead of creating anything.
 */
export async function seedDemo(host: Host, dataDir: string): Promise<DemoSeed> {
  const tokenFile = join(dataDir, DEMO_TOKEN_FILE);
  if ((await findUserByEmail(host.db, DEMO_EMAIL)) === undefined) {
    const password = randomBytes(12).toString('base64url');
    try {
      const seeded = await host.db.transaction(async (tx) => {
        const user = await createUser(tx, { email: DEMO_EMAIL, name: 'Demo user', password });
        const account =
          (await findAccount(tx, DEMO_ACCOUNT_SLUG)) ??
          (await createAccount(tx, { slug: DEMO_ACCOUNT_SLUG, name: 'Demo account' }));
        await addMembership(tx, account.id, user.id, 'owner');
        const { token } = await createToken(tx, { userId: user.id, kind: 'token', name: 'demo' });
        return { user, account, token };
      });
      await saveToken(tokenFile, seeded.token);
      return {
        created: true,
        userId: seeded.user.id,
        email: seeded.user.email,
        password,
        accountId: seeded.account.id,
        accountSlug: seeded.account.slug,
        token: seeded.token,
        tokenFile,
        tokenReissued: false,
      };
    } catch (error) {
      // Another instance sharing the PostgreSQL database seeded first: use its seed below.
      if ((error as { code?: unknown }).code !== '23505') throw error;
    }
  }

  const user = (await findUserByEmail(host.db, DEMO_EMAIL))!;
  let account = await findAccount(host.db, DEMO_ACCOUNT_SLUG);
  if (account === undefined) {
    account = await createAccount(host.db, { slug: DEMO_ACCOUNT_SLUG, name: 'Demo account' });
    await addMembership(host.db, account.id, user.id, 'owner');
  }
  const existing = {
    created: false,
    userId: user.id,
    email: user.email,
    password: undefined,
    accountId: account.id,
    accountSlug: account.slug,
    tokenFile,
  };
  const saved = await readSavedToken(tokenFile);
  if (saved !== undefined && (await userForToken(host.db, saved, 'token'))?.id === user.id) {
    return { ...existing, token: saved, tokenReissued: false };
  }
  const { token } = await createToken(host.db, { userId: user.id, kind: 'token', name: 'demo' });
  await saveToken(tokenFile, token);
  return { ...existing, token, tokenReissued: true };
}
