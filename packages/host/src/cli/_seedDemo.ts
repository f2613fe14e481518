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
export const DEMO_ACCOUNT_FILE = 'demo-account';
export const DEMO_PASSWORD_FILE = 'demo-password';

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
  /** `<dataDir>/demo-token` (mode 0600): the token, which is never printed. */
  readonly tokenFile: string;
  /** The saved token was missing or no longer valid, so a new one was issued. */
  readonly tokenReissued: boolean;
  /** `<dataDir>/demo-account` (mode 0600): the account id, so printed commands need not show it. */
  readonly accountFile: string;
  /**
   * `<dataDir>/demo-password` (mode 0600): the first start's generated password, which is never
   * printed; undefined when this data folder has none (another instance seeded the database).
   */
  readonly passwordFile: string | undefined;
}

// `mode` applies only when a file is created: an older file is narrowed too, every start.
async function restrict(file: string): Promise<void> {
  await chmod(file, 0o600);
}

async function readSaved(file: string): Promise<string | undefined> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    await restrict(file);
    return text || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes one demo credential (or id) for the owner's eyes only: mode 0600, also when the file exists. */
async function saveFile(file: string, value: string): Promise<void> {
  await writeFile(file, `${value}\n`, { mode: 0o600 });
  await restrict(file);
}

/**
 * The demo user (`demo@platform.local`), account `demo` (the user owns it) and a bearer token,
 * created once. Nothing secret is meant for the log stream, so the token is kept in
 * `<dataDir>/demo-token`, the account id in `<dataDir>/demo-account` and the first start's
 * password in `<dataDir>/demo-password`, each mode 0600 (the database holds only hashes); a later
 * start reads the token back instead of creating anything.
 */
export async function seedDemo(host: Host, dataDir: string): Promise<DemoSeed> {
  const tokenFile = join(dataDir, DEMO_TOKEN_FILE);
  const accountFile = join(dataDir, DEMO_ACCOUNT_FILE);
  const passwordFile = join(dataDir, DEMO_PASSWORD_FILE);
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
      await saveFile(passwordFile, password);
      await saveFile(tokenFile, seeded.token);
      await saveFile(accountFile, seeded.account.id);
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
        accountFile,
        passwordFile,
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
    accountFile,
    passwordFile: (await readSaved(passwordFile)) === undefined ? undefined : passwordFile,
  };
  if ((await readSaved(accountFile)) !== account.id) await saveFile(accountFile, account.id);
  const saved = await readSaved(tokenFile);
  if (saved !== undefined && (await userForToken(host.db, saved, 'token'))?.id === user.id) {
    return { ...existing, token: saved, tokenReissued: false };
  }
  const { token } = await createToken(host.db, { userId: user.id, kind: 'token', name: 'demo' });
  await saveFile(tokenFile, token);
  return { ...existing, token, tokenReissued: true };
}
