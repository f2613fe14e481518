import type { ReactNode } from 'react';
import type { ServerAnswer } from './_shellContext.js';
import { RunLogsAndStorage, type RunOutput } from './RunLogsAndStorage.js';

interface ToolRunData extends RunOutput {
  readonly cancelled?: boolean;
  readonly result?:
    | { readonly ok: true; readonly data: unknown }
    | {
        readonly ok: false;
        readonly error: {
          readonly code: string;
          readonly message: string;
          readonly issues?: readonly { readonly path?: readonly unknown[]; readonly message?: string }[];
          readonly devError?: { readonly message?: string };
        };
      };
  readonly mode?: string;
  readonly variant?: string;
}

/** A tool call's outcome: its JSON result or error (issues, the developer error), log lines, storage before and after. */
export function ToolResult({
  label,
  answer,
}: {
  readonly label: string;
  readonly answer: ServerAnswer;
}): ReactNode {
  const body = answer.body as {
    ok?: boolean;
    data?: ToolRunData;
    error?: { code?: string; message?: string };
  } | null;
  if (body?.ok !== true || body.data === undefined) {
    return (
      <section aria-label={label} className="harness-result">
        <div role="alert" className="harness-error">
          <p className="harness-error__title">
            HTTP {answer.status}
            {body?.error?.code === undefined ? '' : ` ${body.error.code}`}
          </p>
          <p>{body?.error?.message ?? String(answer.body)}</p>
        </div>
      </section>
    );
  }
  const data = body.data;
  if (data.cancelled === true) {
    return (
      <section aria-label={label} className="harness-result">
        <p role="status">
          <span className="harness-badge harness-badge--off">Cancelled, not run</span> A model would get
          isError: "was not confirmed".
        </p>
      </section>
    );
  }
  const result = data.result;
  return (
    <section aria-label={label} className="harness-result">
      <p role="status">
        <span className={`harness-badge harness-badge--${result?.ok === true ? 'ok' : 'off'}`}>
          {result?.ok === true ? 'Tool succeeded' : `Tool failed: ${result?.error.code ?? 'unknown'}`}
        </span>
        {result?.ok === false ? ` ${result.error.message}` : ''}
        {data.mode === undefined ? '' : ` · ${data.mode}, ${data.variant ?? 'default'}`}
      </p>
      {result?.ok === true ? (
        <>
          <h4>Result</h4>
          <pre className="harness-pre" data-testid="tool-result">
            {JSON.stringify(result.data, null, 2)}
          </pre>
        </>
      ) : null}
      {result?.ok === false && result.error.issues !== undefined && result.error.issues.length > 0 ? (
        <ul aria-label="Validation issues">
          {result.error.issues.map((issue, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: issues have no identity of their own
            <li key={index}>
              <code>
                {issue.path === undefined || issue.path.length === 0
                  ? '(arguments)'
                  : issue.path.map(String).join('.')}
              </code>
              : {issue.message ?? 'invalid'}
            </li>
          ))}
        </ul>
      ) : null}
      {result?.ok === false && result.error.devError?.message !== undefined ? (
        <p>
          Developer error (the harness only): <code>{result.error.devError.message}</code>
        </p>
      ) : null}
      <RunLogsAndStorage data={data} />
    </section>
  );
}
