import type { ReactNode } from 'react';
import type { ServerAnswer } from './_shellContext.js';
import { RunLogsAndStorage, type RunOutput } from './RunLogsAndStorage.js';

interface Issue {
  readonly message?: string;
  readonly path?: readonly unknown[];
  readonly code?: string;
}

interface TriggerData extends RunOutput {
  readonly result?: {
    readonly ok: boolean;
    readonly error?: { readonly message?: string; readonly code?: string };
  };
  readonly signature?: {
    readonly headers?: Readonly<Record<string, string>>;
    readonly secret?: { readonly name?: string; readonly source?: string; readonly note?: string };
  };
  /** A webhook's synchronous reply: the handler did not run, nothing would be queued. */
  readonly reply?: { readonly status?: number; readonly body?: string; readonly contentType?: string };
  readonly queued?: boolean;
  /** The request view a webhook's handler and reply got. */
  readonly request?: { readonly headers?: Readonly<Record<string, string>>; readonly contentType?: string };
  readonly at?: string;
  readonly mode?: string;
  readonly variant?: string;
}

/** What a trigger route answered: result, log lines, storage before and after; or the error, issues readable. */
export function TriggerResult({
  label,
  answer,
}: {
  readonly label: string;
  readonly answer: ServerAnswer;
}): ReactNode {
  const body = answer.body as {
    ok?: boolean;
    data?: TriggerData;
    error?: { code?: string; message?: string; issues?: readonly Issue[] };
  } | null;
  if (body?.ok !== true || body.data === undefined) {
    const error = body?.error;
    return (
      <section aria-label={label} className="harness-result">
        <div role="alert" className="harness-error">
          <p className="harness-error__title">
            HTTP {answer.status}
            {error?.code === undefined ? '' : ` ${error.code}`}
          </p>
          <p>
            {error?.message ?? (typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body))}
          </p>
          {error?.issues === undefined || error.issues.length === 0 ? null : (
            <ul aria-label="Validation issues">
              {error.issues.map((issue, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: issues have no identity of their own
                <li key={index}>
                  <code>
                    {issue.path === undefined || issue.path.length === 0
                      ? '(payload)'
                      : issue.path.map(String).join('.')}
                  </code>
                  : {issue.message ?? issue.code ?? 'invalid'}
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
    );
  }
  const data = body.data;
  const ok = data.result?.ok === true;
  const replied = data.queued === false;
  const outcome = replied
    ? ok
      ? `Replied at once (HTTP ${data.reply?.status ?? 200}), not queued`
      : 'Reply failed, not queued'
    : ok
      ? 'Handler succeeded'
      : 'Handler failed';
  return (
    <section aria-label={label} className="harness-result">
      <p role="status">
        <span className={`harness-badge harness-badge--${ok ? 'ok' : 'off'}`}>{outcome}</span>
        {ok ? '' : ` ${data.result?.error?.message ?? ''}`}
        {data.at === undefined ? '' : ` (virtual time ${data.at})`}
        {data.mode === undefined ? '' : ` · ${data.mode}, ${data.variant ?? 'default'}`}
      </p>
      {data.signature === undefined ? null : (
        <div>
          <h4>Signature</h4>
          <p>
            Signed with <code>{data.signature.secret?.name}</code> ({data.signature.secret?.source}),
            verified.
            {data.signature.secret?.note === undefined ? '' : ` ${data.signature.secret.note}`}
          </p>
          <pre className="harness-pre">{JSON.stringify(data.signature.headers ?? {}, null, 2)}</pre>
        </div>
      )}
      {data.reply === undefined ? null : (
        <div>
          <h4>Reply</h4>
          <p>
            HTTP {data.reply.status ?? 200}
            {data.reply.contentType === undefined ? '' : `, ${data.reply.contentType}`}
          </p>
          <pre className="harness-pre" data-testid="reply-body">
            {data.reply.body ?? ''}
          </pre>
        </div>
      )}
      {data.request?.headers === undefined ? null : (
        <div>
          <h4>Request headers the webhook saw</h4>
          <pre className="harness-pre" data-testid="request-headers">
            {JSON.stringify(data.request.headers, null, 2)}
          </pre>
        </div>
      )}
      <RunLogsAndStorage data={data} />
    </section>
  );
}
