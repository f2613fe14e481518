import { type ReactNode, useCallback, useLayoutEffect, useRef } from 'react';
import { Alert } from '../_Alert.js';
import { Skeleton } from '../_Skeleton.js';
import { useWidgetContext } from './_context.js';
import { RefreshButton } from './_RefreshButton.js';
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
  /** Shows a Refresh button in the widget's header (and "Try again" on the error state). */
  readonly onRefresh?: () => void;
  /** True while a refresh runs: the button is marked busy (it keeps focus) and its icon turns. */
  readonly refreshing?: boolean;
  /** When the data was last updated, shown as relative time ("Updated 5 minutes ago") in the footer. */
  readonly updatedAt?: Moment;
}

const defaultIsEmpty = (data: unknown): boolean =>
  data === null || data === undefined || (Array.isArray(data) && data.length === 0);

/**
 * The four states of a widget's data (loading, error, empty, data). Refresh goes to the header and
 * the time of the last update to the health footer, so the body is all content; without a header or
 * footer they show under the content. Precedence: error, then loading, then empty, then data.
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
  const { labels, locale, titled, footered, setDataStatus } = useWidgetContext('Widget.DataState');
  const updated = toDate(updatedAt);
  const now = useNow(updated !== undefined && !footered);
  const failed = error !== undefined && error !== null && error !== false;

  // The chrome gets a stable callback, so a new `onRefresh` each render does not re-render it.
  const latestRefresh = useRef(onRefresh);
  latestRefresh.current = onRefresh;
  const refresh = useCallback(() => latestRefresh.current?.(), []);
  const hasRefresh = onRefresh !== undefined;
  const updatedMs = updated?.getTime();
  useLayoutEffect(() => {
    setDataStatus({ onRefresh: hasRefresh ? refresh : undefined, refreshing, updatedAt: updatedMs });
    return () => setDataStatus(undefined);
  }, [setDataStatus, hasRefresh, refresh, refreshing, updatedMs]);

  let content: ReactNode;
  let state: 'error' | 'loading' | 'empty' | 'data';
  if (failed) {
    state = 'error';
    content = (
      <Alert
        tone="error"
        title={labels.error}
        message={error instanceof Error && error.message !== '' ? error.message : undefined}
        action={
          onRefresh === undefined ? undefined : (
            <button type="button" className="plt-button" onClick={refreshing ? undefined : refresh}>
              {labels.retry}
            </button>
          )
        }
      />
    );
  } else if (loading || data === undefined) {
    state = 'loading';
    content = <Skeleton label={labels.loading} />;
  } else if (isEmpty(data)) {
    state = 'empty';
    content = <div className="plt-state plt-state--empty">{empty ?? <p>{labels.empty}</p>}</div>;
  } else {
    state = 'data';
    content = children(data);
  }

  // Without a header or a footer to hold them, Refresh and the last update sit under the content.
  const ownRefresh = hasRefresh && !titled;
  const ownTime = updated !== undefined && !footered;
  const meta =
    ownRefresh || ownTime ? (
      <div className="plt-data-state__meta">
        {ownTime ? (
          <time
            className="plt-widget__muted"
            dateTime={updated.toISOString()}
            title={updated.toLocaleString(locale)}
          >
            {labels.updated(formatRelativeTime(updated, now, locale, labels.justNow))}
          </time>
        ) : null}
        {ownRefresh ? (
          <RefreshButton label={labels.refresh} refreshing={refreshing} onRefresh={refresh} />
        ) : null}
      </div>
    ) : null;

  return (
    <div className="plt-data-state" data-state={state} aria-busy={state === 'loading' || refreshing}>
      {content}
      {meta}
    </div>
  );
}
