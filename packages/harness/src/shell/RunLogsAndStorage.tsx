import type { ReactNode } from 'react';

/** What a harness run answered besides its result: the log lines and the storage around it. */
export interface RunOutput {
  readonly logs?: readonly {
    readonly level?: string;
    readonly message?: string;
    readonly fields?: unknown;
  }[];
  readonly storage?: { readonly before?: unknown; readonly after?: unknown };
}

/** A run's log lines, then its storage before and after: the same for triggers and tools. */
export function RunLogsAndStorage({ data }: { readonly data: RunOutput }): ReactNode {
  return (
    <>
      <h4>Logs</h4>
      {data.logs === undefined || data.logs.length === 0 ? (
        <p className="harness-muted">No log lines.</p>
      ) : (
        <ul aria-label="Logs" className="harness-logs">
          {data.logs.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: log lines are in order and never reordered
            <li key={index}>
              <span className="harness-log-level">{line.level ?? 'info'}</span> {line.message}
              {line.fields === undefined ? '' : ` ${JSON.stringify(line.fields)}`}
            </li>
          ))}
        </ul>
      )}
      <div className="harness-columns">
        <div>
          <h4>Storage before</h4>
          <pre className="harness-pre" data-testid="storage-before">
            {JSON.stringify(data.storage?.before ?? {}, null, 2)}
          </pre>
        </div>
        <div>
          <h4>Storage after</h4>
          <pre className="harness-pre" data-testid="storage-after">
            {JSON.stringify(data.storage?.after ?? {}, null, 2)}
          </pre>
        </div>
      </div>
    </>
  );
}
