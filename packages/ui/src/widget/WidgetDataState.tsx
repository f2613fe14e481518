import { faCircleExclamation, faRotateRight } from '@fortawesome/free-solid-svg-icons';
import type { ReactNode } from 'react';
import { Icon } from '../icons/Icon.js';
import { useWidgetContext } from './_context.js';
import { formatRelativeTime, type Moment, toDate, useNow } from './_relativeTime.js';

export interface WidgetDataStateProps<T> {
  /** The data, once loaded; while it is `undefined` (and there is no error) the loading state shows. */
  readonly data: T | undefined;
  /** True while the first load runs (react-query: `isPending`). */
  readonly loading?: boolean;
  /** A failure to show instead of the data (react-query: `error`); its message is shown when it is an `Error`. */
  readonly error?: unknown;
  /** Which data counts as empty. Default: `null`, `undefined` and empty arrays. */
  readonly isEmpty?: (data: T) => boolean;
  /** What to show for empty data. Default: the `empty` label. */
  readonly empty?: ReactNode;
  /** Renders the data. */
  readonly children: (data: T) => ReactNode;
  /** Shows a Refresh button (and "Try again" on the error state). */
  readonly onRefresh?: () => void;
  /** True while a refresh runs: the button is disabled and its icon turns. */
  readonly refreshing?: boolean;
  /** When the data was last updated, shown as relative time ("Updated 5 minutes ago"). */
  readonly updatedAt?: Moment;
}

const defaultIsEmpty = (data: unknown): boolean =>
  data === null || data === undefined || (Array.isArray(data) && data.length === 0);

/**
 * The four states of a widget's data (loading, error, empty, data) with a refresh control and the
 * time of the last update. Precedence: error, then loading, then empty, then data.
 * @example
 * <Widget.DataState data={q.data} loading={q.isPending} error={q.error} onRefresh={() => q.refetch()}
 *   refreshing={q.isFetching && !q.isPending} updatedAt={q.dataUpdatedAt || undefined}>
 *   {(notes) => <NoteList notes={notes} />}
 * </Widget.DataState>
 */
export function WidgetDataState<T>({
  data,
  loading = false,
  error,
  isEmpty = defaultIsEmpty,
  empty,
  children,
  onRefresh,
  refreshing = false,
  updatedAt,
}: WidgetDataStateProps<T>): ReactNode {
  const { labels, locale } = useWidgetContext('Widget.DataState');
  const updated = toDate(updatedAt);
  const now = useNow(updated !== undefined);
  const failed = error !== undefined && error !== null && error !== false;

  let content: ReactNode;
  let state: 'error' | 'loading' | 'empty' | 'data';
  if (failed) {
    state = 'error';
    content = (
      <div role="alert" className="plt-state plt-state--error">
        <Icon icon={faCircleExclamation} />
        <p>{labels.error}</p>
        {error instanceof Error && error.message !== '' ? (
          <p className="plt-widget__muted">{error.message}</p>
        ) : null}
        {onRefresh === undefined ? null : (
          <button type="button" className="plt-button" onClick={onRefresh} disabled={refreshing}>
            {labels.retry}
          </button>
        )}
      </div>
    );
  } else if (loading || data === undefined) {
    state = 'loading';
    content = (
      <div role="status" className="plt-state plt-state--loading">
        <span className="plt-skeleton" aria-hidden="true" />
        <span className="plt-skeleton plt-skeleton--short" aria-hidden="true" />
        <span className="plt-visually-hidden">{labels.loading}</span>
      </div>
    );
  } else if (isEmpty(data)) {
    state = 'empty';
    content = <div className="plt-state plt-state--empty">{empty ?? <p>{labels.empty}</p>}</div>;
  } else {
    state = 'data';
    content = children(data);
  }

  const toolbar =
    onRefresh !== undefined || updated !== undefined ? (
      <div className="plt-data-state__toolbar">
        {updated === undefined ? null : (
          <time
            className="plt-widget__muted"
            dateTime={updated.toISOString()}
            title={updated.toLocaleString(locale)}
          >
            {labels.updated(formatRelativeTime(updated, now, locale, labels.justNow))}
          </time>
        )}
        {onRefresh === undefined ? null : (
          <button
            type="button"
            className="plt-icon-button"
            aria-label={labels.refresh}
            title={labels.refresh}
            onClick={onRefresh}
            disabled={refreshing}
            aria-busy={refreshing}
          >
            <Icon icon={faRotateRight} spin={refreshing} />
          </button>
        )}
      </div>
    ) : null;

  return (
    <div className="plt-data-state" data-state={state} aria-busy={state === 'loading' || refreshing}>
      {toolbar}
      {content}
    </div>
  );
}
