import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError } from '../cli/CliError.js';

/** A credential for one host: a CLI session from the device flow, or a personal access token. */
export interface HostSession {
  readonly token: string;
  readonly kind: 'cli' | 'token';
  readonly user: { readonly email: string };
  /** The source `platform use` selected on this host. */
  readonly source?: string;
}

/** `hosts.json`: every host signed in to, and the one commands use without `--host`. */
export interface HostsFile {
  readonly current?: string;
  readonly hosts: Readonly<Record<string, HostSession>>;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Where sessions live: `<config>/platform/hosts.json`, `<config>` being `$PLATFORM_CONFIG_DIR`,
 * else `$XDG_CONFIG_HOME`, else `~/.config`.
 */
export function hostsFilePath(env: Env): string {
  const config =
    nonEmpty(env.PLATFORM_CONFIG_DIR) ?? nonEmpty(env.XDG_CONFIG_HOME) ?? join(homedir(), '.config');
  return join(config, 'platform', 'hosts.json');
}

/** The sessions file, or an empty one when there is none yet. */
export function readHosts(env: Env): HostsFile {
  const path = hostsFilePath(env);
  if (!existsSync(path)) return { hosts: {} };
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw invalidFile(path, (error as Error).message, error);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidFile(path, 'it is not a JSON object');
  }
  const record = value as { current?: unknown; hosts?: unknown };
  const hosts: Record<string, HostSession> = {};
  if (typeof record.hosts === 'object' && record.hosts !== null) {
    for (const [origin, raw] of Object.entries(record.hosts as Record<string, unknown>)) {
      const session = raw as Partial<HostSession> | null;
      if (typeof session?.token !== 'string' || (session.kind !== 'cli' && session.kind !== 'token'))
        continue;
      hosts[origin] = {
        token: session.token,
        kind: session.kind,
        user: { email: typeof session.user?.email === 'string' ? session.user.email : '' },
        ...(typeof session.source === 'string' ? { source: session.source } : {}),
      };
    }
  }
  return typeof record.current === 'string' ? { current: record.current, hosts } : { hosts };
}

/**
 * Replaces the sessions file: its folder 0700, the file 0600, written to a temporary file and
 * renamed over the old one, so a crash never leaves half a file and no other user can read a token.
 */
export function writeHosts(env: Env, file: HostsFile): void {
  const path = hostsFilePath(env);
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const temporary = join(dir, `.hosts.json.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Stores the session for `origin` (keeping its selected source) and makes it the current host. */
export function saveSession(env: Env, origin: string, session: Omit<HostSession, 'source'>): HostSession {
  const file = readHosts(env);
  const source = file.hosts[origin]?.source;
  const stored: HostSession = { ...session, ...(source === undefined ? {} : { source }) };
  writeHosts(env, { current: origin, hosts: { ...file.hosts, [origin]: stored } });
  return stored;
}

/** Records `source` as the selected source of `origin` (which has a session). */
export function saveSelectedSource(env: Env, origin: string, source: string): void {
  const file = readHosts(env);
  const session = file.hosts[origin];
  if (session === undefined) return;
  writeHosts(env, { ...file, hosts: { ...file.hosts, [origin]: { ...session, source } } });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function invalidFile(path: string, reason: string, cause?: unknown): CliError {
  return new CliError('config_invalid', `The sessions file ${path} cannot be read: ${reason}.`, {
    hint: `Fix or delete ${path}, then run \`platform login --host <url>\` again.`,
    ...(cause === undefined ? {} : { cause }),
  });
}
