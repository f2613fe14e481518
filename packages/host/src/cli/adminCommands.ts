import { TOKEN_SCOPES } from '../store/users.js';
import { DATA_HELP, DATA_OPTION, dataOptionsFrom } from './_openHost.js';
import {
  adminAddActivation,
  adminAddMember,
  adminAddSeat,
  adminAddSourceAccount,
  adminCreateAccount,
  adminCreateSource,
  adminCreateToken,
  adminCreateUser,
  adminListDeliveries,
  adminRemoveSourceAccount,
  adminRevokeToken,
  adminSetSecret,
  adminUserTotp,
} from './admin.js';
import { adminSetConnection } from './adminConnection.js';
import { adminSetToolPolicy } from './adminTools.js';
import { CliError } from './CliError.js';
import type { CliIo, Command, CommandResult, ParsedArgs } from './Command.js';
import { integerOption, oneOf, optionalString, requiredString, someOf } from './parseArgs.js';

type Options = Command['options'];

/** One `platform-host admin <words>` command: `--data`, `--json`, and served by a running serve. */
export function adminCommand(
  words: string,
  summary: string,
  usage: readonly string[],
  options: Options,
  run: (command: Command, args: ParsedArgs, io: CliIo) => Promise<CommandResult>,
  positionals?: Command['positionals'],
): Command {
  const command: Command = {
    path: ['admin', ...words.split(' ')],
    ...(positionals === undefined ? {} : { positionals }),
    summary,
    help: [
      `platform-host admin ${words} ${usage[0]} [--data DIR] [--json]`,
      '',
      ...usage.slice(1),
      DATA_HELP,
    ].join('\n'),
    options: { ...DATA_OPTION, ...options },
    json: true,
    throughServe: true,
    run: (args, io) => run(command, args, io),
  };
  return command;
}

/** `--x V` or `--x-stdin` (kept out of shell history and `ps`), exactly one; stdin loses one trailing newline. */
async function valueFrom(command: Command, args: ParsedArgs, io: CliIo, name: string, required: boolean) {
  const inline = optionalString(args, name);
  const fromStdin = args.values[`${name}-stdin`] === true;
  if (inline !== undefined && fromStdin) {
    throw new CliError(
      'usage',
      `Pass --${name} or --${name}-stdin, not both.`,
      `Drop one of --${name} and --${name}-stdin.`,
    );
  }
  if (fromStdin) return (await io.readStdin()).replace(/\r?\n$/, '');
  if (inline === undefined && required) {
    throw new CliError(
      'usage',
      `Missing --${name} or --${name}-stdin.`,
      `Pipe the value in with --${name}-stdin (or pass --${name} V); see \`platform-host ${command.path.join(' ')} --help\`.`,
    );
  }
  return inline;
}

const str = { type: 'string' } as const;
const ACCOUNT_HELP = '  --account A         the account, by id or slug';
const flag = { type: 'boolean' } as const;

export const adminCommands: readonly Command[] = [
  adminCommand(
    'user create',
    'Create a user (optionally a platform admin)',
    [
      '--email E --name N [--password P | --password-stdin] [--platform-admin]',
      '  --password P        a sign-in password (without one the user signs in only with tokens)',
      '  --password-stdin    read the password from standard input',
      '  --platform-admin    may promote versions and manage the host',
    ],
    { email: str, name: str, password: str, 'password-stdin': flag, 'platform-admin': flag },
    async (command, args, io) => {
      const user = await adminCreateUser({
        ...dataOptionsFrom(args, io),
        email: requiredString(command, args, 'email'),
        name: requiredString(command, args, 'name'),
        password: await valueFrom(command, args, io, 'password', false),
        platformAdmin: args.values['platform-admin'] === true,
      });
      return {
        data: user,
        text: `created user ${user.email} (${user.id})${user.isPlatformAdmin ? ', platform admin' : ''}`,
      };
    },
  ),
  adminCommand(
    'account create',
    'Create an account',
    ['--slug S --name N'],
    { slug: str, name: str },
    async (command, args, io) => {
      const account = await adminCreateAccount({
        ...dataOptionsFrom(args, io),
        slug: requiredString(command, args, 'slug'),
        name: requiredString(command, args, 'name'),
      });
      return { data: account, text: `created account ${account.slug} (${account.id})` };
    },
  ),
  adminCommand(
    'member add',
    'Add a user to an account (or change their role)',
    ['--account A --email E --role owner|admin|member', ACCOUNT_HELP],
    { account: str, email: str, role: str },
    async (command, args, io) => {
      const member = await adminAddMember({
        ...dataOptionsFrom(args, io),
        account: requiredString(command, args, 'account'),
        email: requiredString(command, args, 'email'),
        role: oneOf(command, args, 'role', ['owner', 'admin', 'member']),
      });
      return { data: member, text: `${member.email} is ${member.role} of account ${member.account}` };
    },
  ),
  adminCommand(
    'tool policy',
    "Set an account's policy for a tool served to models: ask (confirm writes), allow, block",
    [
      '--account A --tool NAME --policy ask|allow|block',
      ACCOUNT_HELP,
      '  --tool NAME         the effective name models call (tools/list shows it)',
      '  --policy P          ask: a write, destructive or highly sensitive tool runs after the person confirms (default)',
      '                      allow: runs without asking; block: not listed, refused',
    ],
    { account: str, tool: str, policy: str },
    async (command, args, io) => {
      const set = await adminSetToolPolicy({
        ...dataOptionsFrom(args, io),
        account: requiredString(command, args, 'account'),
        tool: requiredString(command, args, 'tool'),
        policy: oneOf(command, args, 'policy', ['ask', 'allow', 'block']),
      });
      return { data: set, text: `${set.tool} (${set.effect}) in account ${set.account}: ${set.policy}` };
    },
  ),
  adminCommand(
    'source create',
    'Create a source (where integrations are published)',
    ['--slug S --name N --stage development|production'],
    { slug: str, name: str, stage: str },
    async (command, args, io) => {
      const source = await adminCreateSource({
        ...dataOptionsFrom(args, io),
        slug: requiredString(command, args, 'slug'),
        name: requiredString(command, args, 'name'),
        stage: oneOf(command, args, 'stage', ['development', 'production']),
      });
      return { data: source, text: `created ${source.stage} source ${source.slug} (${source.id})` };
    },
  ),
  adminCommand(
    'seat add',
    'Give a user a seat on a source (or change its role)',
    ['--source S --email E --role owner|publisher|viewer'],
    { source: str, email: str, role: str },
    async (command, args, io) => {
      const seat = await adminAddSeat({
        ...dataOptionsFrom(args, io),
        source: requiredString(command, args, 'source'),
        email: requiredString(command, args, 'email'),
        role: oneOf(command, args, 'role', ['owner', 'publisher', 'viewer']),
      });
      return { data: seat, text: `${seat.email} holds a ${seat.role} seat on source ${seat.source}` };
    },
  ),
  adminCommand(
    'source-account add',
    'Serve an account from a source (its live versions reach that account)',
    ['--source S --account A', ACCOUNT_HELP],
    { source: str, account: str },
    async (command, args, io) => {
      const link = await adminAddSourceAccount({
        ...dataOptionsFrom(args, io),
        source: requiredString(command, args, 'source'),
        account: requiredString(command, args, 'account'),
      });
      return { data: link, text: `source ${link.source} serves account ${link.account}` };
    },
  ),
  adminCommand(
    'source-account remove',
    'Stop serving an account from a source (calls, tools and deliveries stop; activations are kept)',
    ['--source S --account A', ACCOUNT_HELP],
    { source: str, account: str },
    async (command, args, io) => {
      const link = await adminRemoveSourceAccount({
        ...dataOptionsFrom(args, io),
        source: requiredString(command, args, 'source'),
        account: requiredString(command, args, 'account'),
      });
      return { data: link, text: `source ${link.source} no longer serves account ${link.account}` };
    },
  ),
  adminCommand(
    'token create',
    'Create a personal access token for a user (printed once)',
    [
      '--email E [--name N] [--scope publish|read ...] [--expires-days D]',
      '  --scope S           what it may do: publish, read; repeat for both (default: both)',
      '  --expires-days D    expire after D days (default: never)',
    ],
    { email: str, name: str, scope: { type: 'string', multiple: true }, 'expires-days': str },
    async (command, args, io) => {
      const token = await adminCreateToken({
        ...dataOptionsFrom(args, io),
        email: requiredString(command, args, 'email'),
        name: optionalString(args, 'name'),
        scopes: someOf(args, 'scope', TOKEN_SCOPES, TOKEN_SCOPES),
        expiresDays: integerOption(args, 'expires-days', { min: 1, max: 3650 }, undefined),
      });
      const expiry = token.expiresAt === null ? 'never expires' : `expires ${token.expiresAt}`;
      return {
        data: token,
        text: `${token.token}\n(token ${token.id} for ${token.email}, scopes ${token.scopes.join(' ')}, ${expiry}; shown once, store it now)`,
      };
    },
  ),
  adminCommand(
    'token revoke',
    'Revoke a personal access token or CLI session by id (it stops working at once)',
    ['<id>', '  <id>                the id `admin token create` printed'],
    {},
    async (_command, args, io) => {
      const revoked = await adminRevokeToken({ ...dataOptionsFrom(args, io), id: args.positionals[0] ?? '' });
      const owner = revoked.email === null ? '' : ` of ${revoked.email}`;
      return { data: revoked, text: `revoked ${revoked.kind} ${revoked.id}${owner} (${revoked.revokedAt})` };
    },
    { min: 1, max: 1 },
  ),
  adminCommand(
    'user totp',
    'Enable TOTP for a user: prints the secret and otpauth URL for their authenticator app',
    [
      '--email E',
      '  Replaces any earlier TOTP secret of the user; their sign-ins then wait for a code.',
      '  The secret is printed once: hand it to the user over a safe channel.',
    ],
    { email: str },
    async (command, args, io) => {
      const totp = await adminUserTotp({
        ...dataOptionsFrom(args, io),
        email: requiredString(command, args, 'email'),
      });
      return {
        data: totp,
        text: `TOTP enabled for ${totp.email}\nsecret: ${totp.secret}\nurl:    ${totp.otpauthUrl}`,
      };
    },
  ),
  adminCommand(
    'secret set',
    'Set an admin-tier secret (source or global) of an integration; the value is never printed',
    [
      '--integration SLUG --tier source|global [--source S] --name NAME (--value V | --value-stdin)',
      "  --source S          source tier: whose secret (default: the integration's source)",
      '  --value-stdin       read the value from standard input (keeps it out of shell history)',
      '  Account-tier secrets are refused: the integration writes them (ctx.secrets.set).',
    ],
    { integration: str, tier: str, source: str, name: str, value: str, 'value-stdin': flag },
    async (command, args, io) => {
      const secret = await adminSetSecret({
        ...dataOptionsFrom(args, io),
        integration: requiredString(command, args, 'integration'),
        tier: requiredString(command, args, 'tier'),
        source: optionalString(args, 'source'),
        name: requiredString(command, args, 'name'),
        value: (await valueFrom(command, args, io, 'value', true)) ?? '',
      });
      const owner = 'source' in secret ? ` of source ${secret.source}` : '';
      return {
        data: secret,
        text: `set ${secret.tier}-tier secret ${secret.name}${owner} for ${secret.integration}`,
      };
    },
  ),
  adminCommand(
    'connection set',
    "Set an account's apiKey or basic connection of an integration: verified first, stored only on 2xx",
    [
      '--integration SLUG --account A [--field NAME=VALUE ...] [--fields-stdin]',
      ACCOUNT_HELP,
      '  --field NAME=VALUE  a field that is not secret (repeat for more)',
      '  --fields-stdin      read NAME=VALUE lines from standard input: secret fields come only this way',
    ],
    { integration: str, account: str, field: { type: 'string', multiple: true }, 'fields-stdin': flag },
    async (command, args, io) => {
      const inline = args.values.field;
      const set = await adminSetConnection({
        ...dataOptionsFrom(args, io),
        integration: requiredString(command, args, 'integration'),
        account: requiredString(command, args, 'account'),
        inline: Array.isArray(inline) ? inline.map(String) : [],
        stdin: args.values['fields-stdin'] === true ? await io.readStdin() : undefined,
      });
      return {
        data: set,
        text: `connection of ${set.integration} verified and stored for account ${set.account} (${set.fields.join(', ')})`,
      };
    },
  ),
  adminCommand(
    'activation add',
    'Activate an integration for an account (runs onActivate the first time)',
    [
      '--integration SLUG --account A [--email E]',
      ACCOUNT_HELP,
      '  --email E           who activates (default: an owner or admin of the account)',
    ],
    { integration: str, account: str, email: str },
    async (command, args, io) => {
      const activation = await adminAddActivation({
        ...dataOptionsFrom(args, io),
        integration: requiredString(command, args, 'integration'),
        account: requiredString(command, args, 'account'),
        email: optionalString(args, 'email'),
      });
      const state = activation.created ? 'activated' : 'already active';
      return {
        data: activation,
        text: `${activation.integration}@${activation.version} ${state} for account ${activation.account}`,
      };
    },
  ),
  adminCommand(
    'deliveries list',
    'Show the webhook delivery and schedule run log (received, attempts, outcome, duration, error)',
    [
      '[--integration SLUG] [--account A] [--limit N]',
      ACCOUNT_HELP,
      '  --limit N           how many, newest first (default 50)',
      '  Error messages are stored with URLs redacted (query strings, user info).',
    ],
    { integration: str, account: str, limit: str },
    async (_command, args, io) => {
      const log = await adminListDeliveries({
        ...dataOptionsFrom(args, io),
        integration: optionalString(args, 'integration'),
        account: optionalString(args, 'account'),
        limit: integerOption(args, 'limit', { min: 1, max: 10_000 }, 50) ?? 50,
      });
      const lines = log.entries.map((entry) =>
        [
          entry.receivedAt,
          entry.kind,
          `${entry.integration}/${entry.target}`,
          `account ${entry.accountId}`,
          entry.status,
          `attempts ${entry.attempts}`,
          entry.conflictRetries === 0 ? '' : `conflict retries ${entry.conflictRetries}`,
          entry.durationMs === null ? '' : `${entry.durationMs} ms`,
          entry.error ?? '',
        ]
          .filter((part) => part !== '')
          .join('  '),
      );
      return { data: log, text: lines.length === 0 ? 'no deliveries or runs yet' : lines.join('\n') };
    },
  ),
];
