import { fieldsProblem, setConnectionFields } from '../connection/fieldConnection.js';
import { liveVersion } from '../store/integrations.js';
import { requireAccount, requireIntegration } from './_lookups.js';
import { type DataOptions, withHost } from './_openHost.js';
import { CliError } from './CliError.js';

/**
 * `admin connection set`: the fields of an integration's apiKey or basic connection for an
 * account, verified by the definition's `verify` request and stored as account-tier secrets only
 * on 2xx (what `PUT /api/integrations/<slug>/connection` does). A secret field given inline
 * (`--field name=value`, seen in `ps` and shell history) is refused: it comes on standard input.
 */
export async function adminSetConnection(
  options: DataOptions & {
    integration: string;
    account: string;
    /** `name=value` pairs from `--field`. */
    inline: readonly string[];
    /** `name=value` lines from standard input (`--fields-stdin`), or undefined. */
    stdin?: string | undefined;
  },
) {
  const inline = pairs(options.inline, '--field');
  const fromStdin =
    options.stdin === undefined
      ? {}
      : pairs(
          options.stdin.split(/\r?\n/).filter((line) => line !== ''),
          'standard input',
        );
  return withHost(options, 'admin', async (host) => {
    const version = await liveVersion(host.db, options.integration);
    if (version === undefined) {
      await requireIntegration(host.db, options.integration);
      throw new CliError(
        'not_found',
        `Integration "${options.integration}" has no live version.`,
        'Install or promote a version first.',
      );
    }
    const connection = version.manifest.connection;
    if (connection === undefined) {
      throw new CliError(
        'refused',
        `Integration "${version.slug}" declares no connection (apiKey or basic).`,
        'Set its admin secrets with `platform-host admin secret set`, or add connection to its definition.',
      );
    }
    const secretInline = connection.fields.find((field) => field.secret && field.name in inline);
    if (secretInline !== undefined) {
      throw new CliError(
        'usage',
        `--field ${secretInline.name}=... puts a secret on the command line.`,
        `Pipe "${secretInline.name}=<value>" lines in with --fields-stdin instead.`,
      );
    }
    const values = { ...inline, ...fromStdin };
    const problem = fieldsProblem(connection, values);
    if (problem !== undefined) {
      throw new CliError(
        'usage',
        problem,
        `Pass ${connection.fields.map((field) => (field.secret ? `${field.name} on --fields-stdin` : `--field ${field.name}=V`)).join(', ')}.`,
      );
    }
    const account = await requireAccount(host.db, options.account);
    const outcome = await setConnectionFields(host.services, {
      version,
      connection,
      accountId: account.id,
      values,
      identity: { via: 'admin' },
    });
    if (!outcome.ok) {
      throw new CliError(
        'refused',
        `The vendor refused the fields: ${outcome.reason}. Nothing was stored.`,
        'Check the values and run the command again.',
      );
    }
    return { integration: version.slug, account: account.slug, fields: Object.keys(values), verified: true };
  });
}

function pairs(items: readonly string[], where: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf('=');
    if (at <= 0) {
      throw new CliError(
        'usage',
        `Expected name=value on ${where}; got a line without "=".`,
        'Write each field as name=value.',
      );
    }
    result[item.slice(0, at)] = item.slice(at + 1);
  }
  return result;
}
