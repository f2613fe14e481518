import type { Envelope, WireError } from '@platform/wire';

/** A host error answer as the pages show it: the message, what to do, and the code to branch on. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string | undefined;
  readonly reason: string | undefined;

  constructor(status: number, error: WireError) {
    super(error.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = error.code;
    this.hint = error.hint;
    this.reason = typeof error.reason === 'string' ? error.reason : undefined;
  }

  /** The message and the hint, as one sentence pair for an alert. */
  get text(): string {
    return this.hint === undefined ? this.message : `${this.message} ${this.hint}`;
  }
}

/**
 * Calls one of the host's JSON routes from this origin with the session cookie, and answers its
 * `data` or throws {@link ApiError}. A body is sent as JSON (the host's state-changing routes
 * require it); a host that does not answer in JSON becomes an `unavailable` error.
 * @example const me = await api<MeResponse>('GET', '/api/platform/me');
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, {
      code: 'unavailable',
      message: 'The host did not answer.',
      hint: 'Check your connection and try again.',
    });
  }
  let answer: Envelope<T>;
  try {
    answer = (await response.json()) as Envelope<T>;
  } catch {
    throw new ApiError(response.status, {
      code: 'unavailable',
      message: `The host answered ${response.status} without JSON.`,
      hint: 'Try again in a moment.',
    });
  }
  if (!answer.ok) throw new ApiError(response.status, answer.error);
  return answer.data;
}
