import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type JobLogEntry, listJobs } from '../events/jobLog.js';
import { revokeTokenById } from '../store/credentials.js';
import {
  addSeat,
  addSourceAccount,
  createSource,
  findSource,
  liveVersion,
  removeSourceAccount,
  type SeatRole,
  type Source,
  SourceDoesNotServeError,
  type SourceStage,
  sourceServesAccount,
} from '../store/integrations.js';
import { writeSecret } from '../store/secrets.js';
import { newTotpSecret, saveTotpSecret } from '../store/totp.js';
import {
  addMembership,
  createAccount,
  createToken,
  createUser,
  findAccount,
  findUserByEmail,
  type MembershipRole,
  membershipRole,
  TOKEN_SCOPES,
  type TokenScope,
  type User,
} from '../store/users.js';
import { type ActivationOutcome, activateIntegration } from './_activate.js';
import {
  checkSlug,
  cmd,
  EMAIL,
  requireAccount,
  requireIntegration,
  requireSource,
  requireUser,
} from './_lookups.js';
import { type DataOptions, withHost } from './_openHost.js';
import { CliError } from './CliError.js';

// The entity-level operations behind `platform-host admin ...`; each opens the host, checks what
// it refers to exists (with a hint naming the command that creates it), and does one thing.

export async function adminCreateUser(
  options: DataOptions & {
    email: string;
    name: string;
    password?: string | undefined;
    platformAdmin?: boolean;
  },
): Promise<User> {
  if (!EMAIL.test(options.email)) {
    throw new CliError(
      'usage',
      `"${options.email}" is not an email address.`,
      'Pass --email like name@example.com.',
    );
  }
  return withHost(options, 'admin', async (host) => {
    if ((await findUserByEmail(host.db, options.email)) !== undefined) {
      throw new CliError(
        'conflict',
        `A user with email ${options.email} already exists.`,
        `Use that user (for example ${cmd(`member add --account <slug> --email ${options.email} --role member`)}) or pick another email.`,
      );
    }
    return createUser(host.db, {
      email: options.email,
      name: options.name,
      password: options.password,
      isPlatformAdmin: options.platformAdmin ?? false,
    });
  });
}

export async function adminCreateAccount(options: DataOptions & { slug: string; name: string }) {
  checkSlug('Account', options.slug);
  return withHost(options, 'admin', async (host) => {
    if ((await findAccount(host.db, options.slug)) !== undefined) {
      throw new CliError(
        'conflict',
        `Account "${options.slug}" already exists.`,
        'Pick another --slug, or use the existing account.',
      );
    }
    return createAccount(host.db, { slug: options.slug, name: options.name });
  });
}

export async function adminAddMember(
  options: DataOptions & { account: string; email: string; role: MembershipRole },
) {
  return withHost(options, 'admin', async (host) => {
    const account = await requireAccount(host.db, options.account);
    const user = await requireUser(host.db, options.email);
    await addMembership(host.db, account.id, user.id, options.role);
    return { account: account.slug, accountId: account.id, email: user.email, role: options.role };
  });
}

export async function adminCreateSource(
  options: DataOptions & { slug: string; name: string; stage: SourceStage },
): Promise<Source> {
  checkSlug('Source', options.slug);
  return withHost(options, 'admin', async (host) => {
    if ((await findSource(host.db, options.slug)) !== undefined) {
      throw new CliError(
        'conflict',
        `Source "${options.slug}" already exists.`,
        'Pick another --slug, or use the existing source.',
      );
    }
    return createSource(host.db, { slug: options.slug, name: options.name, stage: options.stage });
  });
}

export async function adminAddSeat(options: DataOptions & { source: string; email: string; role: SeatRole }) {
  return withHost(options, 'admin', async (host) => {
    const source = await requireSource(host.db, options.source);
    const user = await requireUser(host.db, options.email);
    await addSeat(host.db, source.id, user.id, options.role);
    return { source: source.slug, email: user.email, role: options.role };
  });
}

export async function adminAddSourceAccount(options: DataOptions & { source: string; account: string }) {
  return withHost(options, 'admin', async (host) => {
    const source = await requireSource(host.db, options.source);
    const account = await requireAccount(host.db, options.account);
    await addSourceAccount(host.db, source.id, account.id);
    return { source: source.slug, account: account.slug };
  });
}

/**
 * Stops serving an account from a source: its activations of that source's integrations stay but
 * every call, tool and delivery through them stops (404 like an unknown slug) until served again.
 */
export async function adminRemoveSourceAccount(options: DataOptions & { source: string; account: string }) {
  return withHost(options, 'admin', async (host) => {
    const source = await requireSource(host.db, options.source);
    const account = await requireAccount(host.db, options.account);
    if (!(await removeSourceAccount(host.db, source.id, account.id))) {
      throw new CliError(
        'not_found',
        `Source "${source.slug}" does not serve account "${account.slug}".`,
        `Check the names; ${cmd(`source-account add --source ${source.slug} --account ${account.slug}`)} serves it.`,
      );
    }
    return { source: source.slug, account: account.slug, removed: true };
  });
}

/**
 * A personal access token for a user with `scopes` (default: every scope); the secret is in the
 * result once and never stored in clear.
 */
export async function adminCreateToken(
  options: DataOptions & {
    email: string;
    name?: string | undefined;
    expiresDays?: number | undefined;
    scopes?: readonly TokenScope[] | undefined;
    now?: Date;
  },
) {
  const scopes = TOKEN_SCOPES.filter((scope) => (options.scopes ?? TOKEN_SCOPES).includes(scope));
  return withHost(options, 'admin', async (host) => {
    const user = await requireUser(host.db, options.email);
    const expiresAt =
      options.expiresDays === undefined
        ? undefined
        : new Date((options.now ?? new Date()).getTime() + options.expiresDays * 86_400_000);
    const name = options.name ?? 'admin-issued';
    const { id, token } = await createToken(host.db, {
      userId: user.id,
      kind: 'token',
      name,
      expiresAt,
      scopes,
    });
    return { id, token, email: user.email, name, scopes, expiresAt: expiresAt?.toISOString() ?? null };
  });
}

/** Revokes a personal access token (or CLI session) by id; revoking it again changes nothing. */
export async function adminRevokeToken(options: DataOptions & { id: string; now?: Date }) {
  return withHost(options, 'admin', async (host) => {
    const revoked = await revokeTokenById(host.db, {
      id: options.id,
      now: options.now ?? host.services.now(),
    });
    if (revoked === undefined) {
      throw new CliError(
        'not_found',
        `No token or CLI session with id ${options.id}.`,
        `Check the id (${cmd('token create')} prints it; the owner sees theirs with GET /api/platform/tokens).`,
      );
    }
    const { rows } = await host.db.query('SELECT email FROM users WHERE id = $1', [revoked.userId]);
    return {
      id: revoked.id,
      kind: revoked.kind,
      name: revoked.name,
      email: (rows[0]?.email as string | undefined) ?? null,
      revokedAt: revoked.revokedAt,
    };
  });
}

/**
 * Enables TOTP for a user with a new secret (replacing any earlier one) and returns the secret and
 * its `otpauth://` URL, for the user's authenticator app. From now on their sign-ins wait for a code.
 */
export async function adminUserTotp(options: DataOptions & { email: string; now?: Date }) {
  requireKnownSecretKey(options);
  return withHost(options, 'admin', async (host) => {
    const user = await requireUser(host.db, options.email);
    const { secret, otpauthUrl } = newTotpSecret(user.email);
    await saveTotpSecret(host.db, host.services.secretBox, {
      userId: user.id,
      secret,
      enabledAt: options.now ?? host.services.now(),
    });
    return { email: user.email, secret, otpauthUrl };
  });
}

// With PostgreSQL and no key, a key generated now would be one no host has: what it seals could
// never be opened.
function requireKnownSecretKey(options: DataOptions): void {
  if (
    options.databaseUrl &&
    !options.env?.PLATFORM_SECRET_KEY &&
    !existsSync(join(options.dataDir, 'secret.key'))
  ) {
    throw new CliError(
      'refused',
      `PLATFORM_SECRET_KEY is unset and ${join(options.dataDir, 'secret.key')} does not exist, so the secret would be encrypted with a key no host uses.`,
      'Set PLATFORM_SECRET_KEY to the key your hosts use, or pass the --data folder that holds their secret.key.',
    );
  }
}

/**
 * An admin-tier secret (source or global) for an integration. The account tier is refused: only
 * the integration writes it (`ctx.secrets.set`, for example in `onTokens`).
 */
export async function adminSetSecret(
  options: DataOptions & {
    integration: string;
    tier: string;
    source?: string | undefined;
    name: string;
    value: string;
  },
) {
  if (options.tier === 'account') {
    throw new CliError(
      'refused',
      'Account-tier secrets are written by the integration itself, not by admins.',
      'Use --tier source or --tier global for admin credentials; the integration stores account secrets with ctx.secrets.set (for example in onTokens).',
    );
  }
  if (options.tier !== 'source' && options.tier !== 'global') {
    throw new CliError(
      'usage',
      `--tier must be source or global; got "${options.tier}".`,
      'Pass --tier source or --tier global.',
    );
  }
  if (options.tier === 'global' && options.source !== undefined) {
    throw new CliError(
      'usage',
      '--source applies to --tier source only.',
      'Drop --source, or use --tier source.',
    );
  }
  if (options.name.trim() === '') {
    throw new CliError('usage', 'The secret --name is empty.', 'Pass --name NAME.');
  }
  requireKnownSecretKey(options);
  const tier = options.tier;
  return withHost(options, 'admin', async (host) => {
    const integration = await requireIntegration(host.db, options.integration);
    const source =
      tier === 'source' ? await requireSource(host.db, options.source ?? integration.sourceId) : undefined;
    await writeSecret(host.db, host.services.secretBox, {
      scope: { slug: integration.slug, accountId: '', sourceId: source?.id ?? '' },
      tier,
      name: options.name,
      value: options.value,
    });
    return {
      integration: integration.slug,
      tier,
      ...(source === undefined ? {} : { source: source.slug }),
      name: options.name,
    };
  });
}

/**
 * Activates an integration's live version for an account, as `email` (default: an owner, else an
 * admin, of the account), running `onActivate` for a new activation. Refused, naming
 * `source-account add`, when the integration's source does not serve the account.
 */
export async function adminAddActivation(
  options: DataOptions & { integration: string; account: string; email?: string | undefined },
): Promise<
  { integration: string; account: string; version: number; activatedBy: string } & ActivationOutcome
> {
  return withHost(options, 'admin', async (host) => {
    const version = await liveVersion(host.db, options.integration);
    if (version === undefined) {
      await requireIntegration(host.db, options.integration);
      throw new CliError(
        'not_found',
        `Integration "${options.integration}" has no live version to activate.`,
        'Install a development version with `platform-host install <projectDir>`, or promote a gated one.',
      );
    }
    const account = await requireAccount(host.db, options.account);
    let userId: string;
    let email: string;
    if (options.email !== undefined) {
      const user = await requireUser(host.db, options.email);
      if ((await membershipRole(host.db, account.id, user.id)) === undefined) {
        throw new CliError(
          'refused',
          `${user.email} is not a member of account "${account.slug}".`,
          `Add them with ${cmd(`member add --account ${account.slug} --email ${user.email} --role admin`)}, or pass another --email.`,
        );
      }
      userId = user.id;
      email = user.email;
    } else {
      const { rows } = await host.db.query(
        `SELECT u.id, u.email FROM memberships m JOIN users u ON u.id = m.user_id
         WHERE m.account_id = $1 AND m.role IN ('owner', 'admin') ORDER BY m.role = 'owner' DESC, m.created_at LIMIT 1`,
        [account.id],
      );
      if (rows[0] === undefined) {
        throw new CliError(
          'refused',
          `Account "${account.slug}" has no owner or admin to activate for.`,
          `Add one with ${cmd(`member add --account ${account.slug} --email <email> --role owner`)}, or pass --email.`,
        );
      }
      userId = rows[0].id as string;
      email = rows[0].email as string;
    }
    const source = (await findSource(host.db, version.sourceId))!;
    const notServed = () =>
      new CliError(
        'refused',
        `Source "${source.slug}" does not serve account "${account.slug}", so integration "${version.slug}" cannot be activated there.`,
        `Serve the account first with ${cmd(`source-account add --source ${source.slug} --account ${account.slug}`)}, then run this again.`,
      );
    if (!(await sourceServesAccount(host.db, source.id, account.id))) throw notServed();
    let outcome: ActivationOutcome;
    try {
      outcome = await activateIntegration(host, { version, accountId: account.id, userId });
    } catch (error) {
      // Removed between the check and the write: the store refused it.
      if (error instanceof SourceDoesNotServeError) throw notServed();
      throw error;
    }
    return {
      integration: version.slug,
      account: account.slug,
      version: version.number,
      activatedBy: email,
      ...outcome,
    };
  });
}

/** The webhook delivery and schedule run log, newest first, optionally for one integration and/or account. */
export async function adminListDeliveries(
  options: DataOptions & { integration?: string | undefined; account?: string | undefined; limit: number },
): Promise<{ entries: JobLogEntry[] }> {
  return withHost(options, 'admin', async (host) => {
    if (options.integration !== undefined) await requireIntegration(host.db, options.integration);
    const account =
      options.account === undefined ? undefined : await requireAccount(host.db, options.account);
    return {
      entries: await listJobs(host.db, {
        slug: options.integration,
        accountId: account?.id,
        limit: options.limit,
      }),
    };
  });
}
