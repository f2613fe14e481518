import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { EgressFetchOptions } from '@platform/sdk/server';
import { CliError } from './CliError.js';

/** What `serve` was asked to loosen or add for integrations' outbound requests. */
export interface EgressSwitches {
  /** `--allow-loopback-egress` / `PLATFORM_ALLOW_LOOPBACK_EGRESS=1`: 127.0.0.0/8 and ::1 reachable. */
  readonly allowLoopback: boolean;
  /** `--egress-ca` / `PLATFORM_EGRESS_CA`: the PEM file whose certificates are added to the default trust. */
  readonly caFile: string | undefined;
  /** How many CA certificates that file added. */
  readonly caCertificates: number;
}

export const LOOPBACK_EGRESS_VARIABLE = 'PLATFORM_ALLOW_LOOPBACK_EGRESS';
export const EGRESS_CA_VARIABLE = 'PLATFORM_EGRESS_CA';

/** The one sentence the banner and the log say when loopback egress is on. */
export const LOOPBACK_EGRESS_WARNING =
  'loopback egress is ALLOWED (--allow-loopback-egress): integrations can reach services on this machine (127.0.0.0/8, ::1); for local development and tests only';

/**
 * `PLATFORM_ALLOW_LOOPBACK_EGRESS`: `1` turns loopback egress on, unset, empty or `0` leaves it off;
 * any other value is a usage error rather than a guess.
 * @example loopbackEgressVariable({ PLATFORM_ALLOW_LOOPBACK_EGRESS: '1' }) // true
 */
export function loopbackEgressVariable(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env[LOOPBACK_EGRESS_VARIABLE];
  if (value === undefined || value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new CliError(
    'usage',
    `${LOOPBACK_EGRESS_VARIABLE} is "${value}"; it takes 1 (on) or 0 (off).`,
    `Set ${LOOPBACK_EGRESS_VARIABLE}=1 to let integrations reach loopback, or unset it.`,
  );
}

/**
 * Checks the egress switches of a `serve` and reads its CA file, before anything is opened: loopback
 * egress is refused when `NODE_ENV` is `production`; the CA file must hold one or more PEM
 * certificates and no private key. The result's `egress` goes to `createHost`.
 * @example const { egress, switches } = await egressSwitches({ allowLoopback: true, caFile: '/tmp/ca.pem', env: process.env });
 */
export async function egressSwitches(input: {
  readonly allowLoopback: boolean;
  readonly caFile: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}): Promise<{ egress: EgressFetchOptions; switches: EgressSwitches }> {
  if (input.allowLoopback && input.env.NODE_ENV === 'production') {
    throw new CliError(
      'refused',
      'Loopback egress (--allow-loopback-egress or PLATFORM_ALLOW_LOOPBACK_EGRESS=1) is refused when NODE_ENV is production: it lets integrations reach services on this machine.',
      'Drop --allow-loopback-egress and PLATFORM_ALLOW_LOOPBACK_EGRESS in production; use them only in development and tests, with NODE_ENV unset or not production.',
    );
  }
  const ca = input.caFile === undefined ? [] : await readCaFile(input.caFile);
  return {
    egress: { allowLoopback: input.allowLoopback, ...(ca.length === 0 ? {} : { ca }) },
    switches: { allowLoopback: input.allowLoopback, caFile: input.caFile, caCertificates: ca.length },
  };
}

const CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;
const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/** The PEM certificates of a CA file, each checked to parse; anything else is a startup error naming the file. */
async function readCaFile(file: string): Promise<string[]> {
  const fix = `Pass --egress-ca (or ${EGRESS_CA_VARIABLE}) a readable file of PEM CA certificates (-----BEGIN CERTIFICATE-----), or drop it.`;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new CliError('not_found', `No egress CA file ${file}.`, fix, { cause: error });
    throw new CliError('refused', `Cannot read the egress CA file ${file} (${code ?? 'error'}).`, fix, {
      cause: error,
    });
  }
  if (PRIVATE_KEY.test(text)) {
    throw new CliError(
      'refused',
      `The egress CA file ${file} holds a private key.`,
      'Pass a file with the CA certificates only, and keep the private key out of the host.',
    );
  }
  const certificates = text.match(CERTIFICATE) ?? [];
  if (certificates.length === 0) {
    throw new CliError('refused', `The egress CA file ${file} holds no PEM certificate.`, fix);
  }
  certificates.forEach((pem, index) => {
    try {
      new X509Certificate(pem);
    } catch (error) {
      throw new CliError(
        'refused',
        `Certificate ${index + 1} of the egress CA file ${file} does not parse (${(error as Error).message}).`,
        fix,
        { cause: error },
      );
    }
  });
  return certificates;
}
