import { isIntegrationActionError } from '@platform/sdk/hooks';
import type { ReactNode } from 'react';

/** The integration's slug, as the actions route spells it. */
export const SLUG = 'acme-notes';

/**
 * The account a widget acts for when the host gives it none: `demo`, the account `npm start` seeds
 * (the routes take an account's id or slug). The harness has one account and ignores it.
 */
export const DEFAULT_ACCOUNT = 'demo';

/** What every widget accepts from the host. */
export interface AcmeNotesWidgetProps {
  /** The account (id or slug) the widget reads and writes. Default {@link DEFAULT_ACCOUNT}. */
  readonly accountId?: string;
}

export interface ActionFailureProps {
  /** What failed, e.g. "Could not add the note". */
  readonly summary: string;
  readonly error: unknown;
}

/**
 * A failed action, readably: the route's `code` and `message`, the validation `issues` of
 * `invalid_input`, and the handler's `devError` (message and stack) the harness adds to
 * `handler_error`. Announced as an alert.
 * @example <ActionFailure summary="Could not sync" error={sync.error} />
 */
export function ActionFailure({ summary, error }: ActionFailureProps): ReactNode {
  if (error === null || error === undefined) return null;
  const detailed = isIntegrationActionError(error) ? error : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const issues = detailed?.issues ?? [];
  return (
    <div role="alert" className="plt-alert plt-alert--error acme-notes-failure" data-code={detailed?.code}>
      <div>
        <p>
          <strong>{summary}</strong>
          {detailed === undefined ? ': ' : <> (error code: {detailed.code}): </>}
          {message}
        </p>
        {issues.length === 0 ? null : (
          <ul aria-label="Input problems">
            {issues.map((issue) => (
              <li key={`${issue.path.join('.')}:${issue.code ?? ''}:${issue.message}`}>
                {issue.path.length === 0 ? 'input' : issue.path.join('.')}: {issue.message}
              </li>
            ))}
          </ul>
        )}
        {detailed?.devError === undefined ? null : (
          <div className="acme-notes-failure__dev">
            <p>Handler error (shown by the harness only): {detailed.devError.message}</p>
            {detailed.devError.stack === undefined ? null : (
              <details open>
                <summary>Stack trace</summary>
                <pre style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {detailed.devError.stack}
                </pre>
              </details>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
