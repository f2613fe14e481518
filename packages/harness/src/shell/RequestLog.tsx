import { type ReactNode, useSyncExternalStore } from 'react';
import type { HarnessRequestAnswer } from '../hooks/index.js';
import type { RequestLogStore } from './_requestLog.js';

function answeredBy(answer: HarnessRequestAnswer): string {
  switch (answer.kind) {
    case 'fixture':
      return `fixture ${answer.fixture} → ${answer.status}`;
    case 'oauth-connected':
      return `oauth.connected (${answer.connected ? 'connected' : 'not connected'})`;
    case 'server':
      return `harness server${answer.status === undefined ? '' : ` → ${answer.status}`}${answer.error === undefined ? '' : ` failed: ${answer.error}`}`;
    case 'network':
      return `network${answer.status === undefined ? '' : ` → ${answer.status}`}${answer.error === undefined ? '' : ` failed: ${answer.error}`}`;
    case 'refused':
      return 'refused';
  }
}

/** Every request the entry page's harness fetch (and the shell's trigger calls) handled, newest last. */
export function RequestLog({ store }: { readonly store: RequestLogStore }): ReactNode {
  const lines = useSyncExternalStore(store.subscribe, store.lines, store.lines);
  return (
    <section aria-labelledby="harness-request-log" className="harness-log">
      <div className="harness-log__head">
        <h2 id="harness-request-log">Request log</h2>
        <button type="button" onClick={store.clear} disabled={lines.length === 0}>
          Clear the request log
        </button>
      </div>
      {lines.length === 0 ? (
        <p className="harness-muted">No requests yet.</p>
      ) : (
        <ol className="harness-log__list">
          {lines.map((line) => (
            <li key={line.id} data-kind={line.answer.kind}>
              {line.via === undefined ? null : <span className="harness-muted">{line.via}: </span>}
              <span className="harness-log__method">{line.method}</span> <code>{line.url}</code>{' '}
              <span className="harness-log__answer">{answeredBy(line.answer)}</span>{' '}
              <span className="harness-muted">
                ({line.mode}, {line.variant})
              </span>
              {line.answer.kind === 'refused' ? (
                <div className="harness-log__refusal">
                  {line.answer.suggestion === undefined ? (
                    <p>{line.answer.message}</p>
                  ) : (
                    <p>
                      Add this fixture to <code>fixtures.{line.variant}</code>:{' '}
                      <code>{line.answer.suggestion}</code>
                    </p>
                  )}
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
