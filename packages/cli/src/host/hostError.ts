import { CliError } from '../cli/CliError.js';
import type { CliErrorCode } from '../cli/exitCodes.js';

/** The `error` of a host's `{ ok: false, error }` envelope. */
export interface HostErrorBody {
  readonly code: string;
  readonly message: string;
  readonly hint?: string;
  readonly reason?: string;
  readonly [key: string]: unknown;
}

// Host codes the CLI keeps as they are, with the hint to use when the host sends none.
const PASSED_THROUGH: Readonly<Record<string, { code: CliErrorCode; hint: string }>> = {
  forbidden: {
    code: 'forbidden',
    hint: 'Run `platform sources` to see your seats, and ask an owner of the source for a publisher seat.',
  },
  source_not_found: {
    code: 'source_not_found',
    hint: 'Run `platform sources` to see the sources you hold a seat on.',
  },
  version_not_found: { code: 'version_not_found', hint: 'Run `platform status --all` to see the versions.' },
  invalid_archive: {
    code: 'invalid_archive',
    hint: 'Remove the file the message names from the project, then run `platform publish` again.',
  },
  payload_too_large: {
    code: 'payload_too_large',
    hint: 'Make the project smaller (large assets, fixtures) or ask the host operator to raise the upload limit.',
  },
  slug_taken: {
    code: 'slug_taken',
    hint: 'Choose another slug for the integration in platform.json and its definition, then publish again.',
  },
};

/**
 * A host's error answer as a CLI error: `auth_required` (exit 4) and `forbidden` (exit 5) keep the
 * host's message and hint; the publish errors keep their codes; anything else is `host_error`.
 */
export function hostErrorToCliError(origin: string, status: number, error: HostErrorBody): CliError {
  const hostHint = typeof error.hint === 'string' && error.hint !== '' ? error.hint : undefined;
  const known = PASSED_THROUGH[error.code];
  if (error.code === 'auth_required') {
    return new CliError('auth_required', error.message, {
      hint: hostHint ?? `Run \`platform login --host ${origin}\`.`,
    });
  }
  if (known !== undefined) {
    return new CliError(known.code, error.message, { hint: hostHint ?? known.hint });
  }
  return new CliError('host_error', `${origin} answered ${status} ${error.code}: ${error.message}`, {
    hint:
      hostHint ??
      (status >= 500
        ? 'Run the command again in a moment; if it keeps failing, tell the host operator (the host log names the request).'
        : 'Run the command again with PLATFORM_DEBUG=1, and report it with the command you ran.'),
  });
}

/** A failure to reach the host at all (refused, reset, unknown name, timed out). */
export function unreachableError(origin: string, thrown: unknown): CliError {
  const reason = networkReason(thrown);
  return new CliError('host_unreachable', `Cannot reach the Platform host ${origin} (${reason}).`, {
    hint: `Check that the host is running and that ${origin} is its address (sign in to another with \`platform login --host <url>\`), then run the command again.`,
    cause: thrown,
  });
}

/** The most telling part of a network error: its code (`ECONNREFUSED`), else its innermost message. */
function networkReason(thrown: unknown): string {
  let current: unknown = thrown;
  let message = thrown instanceof Error ? thrown.message : String(thrown);
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    if (current.name === 'TimeoutError') return 'timed out';
    message = current.message;
    current = current.cause;
  }
  return message;
}

/** The host answered with a redirect: a bearer token is never sent on to another address. */
export function redirectedError(origin: string, status: number, location: string | null): CliError {
  let target = location ?? '';
  try {
    target = new URL(target, origin).origin;
  } catch {
    // keep what the host sent
  }
  return new CliError(
    'host_error',
    `${origin} answered ${status}, redirecting to ${target || 'another address'}.`,
    {
      hint: `Sign in with the address the host redirects to: \`platform login --host ${target || '<url>'}\`.`,
    },
  );
}

/** The host answered something other than a Platform JSON envelope. */
export function notAHostError(origin: string, status: number): CliError {
  return new CliError(
    'host_error',
    `${origin} answered ${status} without a Platform JSON envelope; it may not be a Platform host.`,
    {
      hint: 'Check that --host names a Platform host (the origin serving /api/platform/), then run the command again.',
    },
  );
}
