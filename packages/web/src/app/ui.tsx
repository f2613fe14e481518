import type { ReactNode } from 'react';
import { ApiError } from './api.js';

/** A page or a part of one still loading, announced politely. */
export function Loading(props: { label: string }): ReactNode {
  return (
    <p className="app-muted" role="status">
      {props.label}…
    </p>
  );
}

/** A failed request: the host's message and what to do. */
export function ErrorNotice(props: { error: unknown }): ReactNode {
  const text =
    props.error instanceof ApiError
      ? props.error.text
      : 'Something went wrong in this page; reload to try again.';
  return (
    <p role="alert" className="app-error">
      {text}
    </p>
  );
}

/** A date the host sent, in the reader's locale, or a dash. */
export function When(props: { at: string | null | undefined; never?: string }): ReactNode {
  if (props.at === null || props.at === undefined) return <>{props.never ?? '—'}</>;
  const date = new Date(props.at);
  return <time dateTime={props.at}>{date.toLocaleString()}</time>;
}
