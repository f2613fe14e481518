// The fixture refusal is the sdk's own class: `createMockContext` and the harness refuse the same
// way, so a widget or a test catches one class whichever of them answered.
export { NoRecordedResponseError } from '@platform/sdk/integration';

/** Stable codes of the harness's own errors, one map for every class (and `HarnessConfigError`). */
export const HARNESS_ERROR_CODES = {
  config: 'HARNESS_CONFIG_INVALID',
  missingFixture: 'MISSING_FIXTURE',
  liveActionNotConfirmed: 'LIVE_ACTION_NOT_CONFIRMED',
} as const;

export type HarnessErrorCode = (typeof HARNESS_ERROR_CODES)[keyof typeof HARNESS_ERROR_CODES];

/**
 * A react-query query in the harness with neither a seed for the active variant nor a `queryFn` of
 * its own: there is nothing to answer it with, so it fails instead of waiting forever.
 * @example if (error instanceof MissingFixtureError) console.log(error.queryKey, error.variant);
 */
export class MissingFixtureError extends Error {
  override readonly name = 'MissingFixtureError';
  readonly code = HARNESS_ERROR_CODES.missingFixture;
  readonly queryKey: readonly unknown[];
  /** The toolbar variant that had no seed, or `undefined` when the seeds were one list for every variant. */
  readonly variant: string | undefined;

  constructor(queryKey: readonly unknown[], variant?: string) {
    const key = describeQueryKey(queryKey);
    const where = variant === undefined ? 'the seeds' : `seeds.${variant} of the widget`;
    super(
      `No seed for query ${key}${variant === undefined ? '' : ` in variant "${variant}"`} and the query has no queryFn of its own. ` +
        `Add { queryKey: ${key}, data: ... } to ${where} in harness.config.ts, or give the query its own queryFn.`,
    );
    this.queryKey = queryKey;
    this.variant = variant;
  }
}

/**
 * The user declined the live-action confirmation: the request was not sent. Later calls ask again
 * until one is accepted.
 * @example try { await mutateAsync(input); } catch (error) { if (error instanceof LiveActionNotConfirmedError) ... }
 */
export class LiveActionNotConfirmedError extends Error {
  override readonly name = 'LiveActionNotConfirmedError';
  readonly code = HARNESS_ERROR_CODES.liveActionNotConfirmed;
  readonly slug: string;
  /** The action that was about to run, when known. */
  readonly action: string | undefined;

  constructor(slug: string, action?: string) {
    const what = action === undefined ? 'A live action' : `Live action "${action}"`;
    super(
      `${what} of "${slug}" was not confirmed, so the request was not sent. ` +
        'Accept the confirmation to call the real API, or switch the harness toolbar to Fixtures.',
    );
    this.slug = slug;
    this.action = action;
  }
}

// Query keys are usually JSON; a key holding a function or a cycle still gets a readable name.
function describeQueryKey(queryKey: readonly unknown[]): string {
  try {
    return JSON.stringify(queryKey);
  } catch {
    return `[${queryKey.map((part) => String(part)).join(', ')}]`;
  }
}
