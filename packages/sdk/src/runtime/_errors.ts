import { isErrorNamed } from '../integration/errors.js';
import type { DevError } from './envelope.js';
import { redactText } from './redact.js';

/** A thrown value as a redacted one-line message, whatever was thrown. */
export function errorMessage(thrown: unknown): string {
  if (thrown instanceof Error) return redactText(`${thrown.name}: ${thrown.message}`);
  try {
    return redactText(`non-error thrown: ${JSON.stringify(thrown)}`);
  } catch {
    return 'non-error thrown';
  }
}

export function toDevError(thrown: unknown): DevError {
  if (thrown instanceof Error) {
    return {
      message: redactText(thrown.message),
      ...(thrown.stack ? { stack: redactText(thrown.stack) } : {}),
    };
  }
  return { message: errorMessage(thrown) };
}

export function isPublicActionError(thrown: unknown): thrown is Error {
  return isErrorNamed(thrown, 'PublicActionError');
}

/** A `PublicActionError`'s status when it is a 4xx (its class checks that), else 400: another copy of the sdk may have none. */
export function publicActionStatus(thrown: Error): number {
  const status: unknown = (thrown as { status?: unknown }).status;
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 499
    ? status
    : 400;
}
