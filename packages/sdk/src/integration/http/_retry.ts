/** Retry settings with every default filled in. */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly budgetMarginMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  budgetMarginMs: 1000,
};

/** Methods a repeat cannot make do twice what was meant once. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** A gateway or an overloaded vendor: the request may not have been processed, or was and may be again. */
export const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * `Retry-After` in milliseconds from `now`: delay-seconds or an HTTP date (a date in the past is
 * 0). Undefined when absent or unreadable.
 * @example retryAfterMs('2', Date.now()) // 2000
 */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date starts with the day's name; Date.parse alone would take "1.5" or "-5" for dates.
  if (!/^[A-Za-z]{3}/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Exponential backoff with full jitter: a random wait up to `baseDelayMs * 2^(retry-1)`, capped
 * at `maxDelayMs`, where `retry` counts from 1.
 * @example backoffMs(DEFAULT_RETRY, 2, Math.random) // 0..999
 */
export function backoffMs(policy: RetryPolicy, retry: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/** A network failure, as fetch reports it: a TypeError (also one rebuilt across the isolate bridge). */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof Error && error.name === 'TypeError');
}

/** The policy from options over defaults, each value checked. */
export function retryPolicy(
  name: string,
  base: RetryPolicy,
  options: Partial<RetryPolicy> | undefined,
): RetryPolicy {
  const policy = { ...base, ...definedOnly(options ?? {}) };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new TypeError(
      `${name}: retry.maxAttempts must be an integer of at least 1 (1 sends once); got ${String(policy.maxAttempts)}`,
    );
  }
  for (const key of ['baseDelayMs', 'maxDelayMs', 'budgetMarginMs'] as const) {
    const value = policy[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new TypeError(
        `${name}: retry.${key} must be a number of milliseconds, 0 or more; got ${String(value)}`,
      );
    }
  }
  return policy;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}
