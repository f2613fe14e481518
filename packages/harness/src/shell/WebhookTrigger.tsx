import type { ReactNode } from 'react';
import { useId, useState } from 'react';
import type { HarnessDefinition } from '../types.js';
import { exampleFromSchema } from './_exampleFromSchema.js';
import { signatureFacts } from './_signatureSummary.js';
import { useTriggerCall } from './_useTriggerCall.js';
import { TriggerResult } from './TriggerResult.js';

type Webhook = NonNullable<HarnessDefinition['webhooks']>[number];

const FORM = 'application/x-www-form-urlencoded';

/**
 * One webhook: its signature scheme, whether it replies at once, a payload editor prefilled from
 * its schema, the content type (JSON or form) and extra request headers it is sent with, Fire, the result.
 */
export function WebhookTrigger({ webhook }: { readonly webhook: Webhook }): ReactNode {
  const id = useId();
  const [payload, setPayload] = useState(() =>
    JSON.stringify(exampleFromSchema(webhook.payloadSchema), null, 2),
  );
  const [contentType, setContentType] = useState('application/json');
  const [headers, setHeaders] = useState('{}');
  const [parseError, setParseError] = useState<string | null>(null);
  const { answer, busy, fire: post } = useTriggerCall(`triggers/webhooks/${encodeURIComponent(webhook.id)}`);

  const fire = async () => {
    let value: unknown;
    let extra: unknown;
    try {
      value = JSON.parse(payload);
    } catch (error) {
      setParseError(`The payload is not JSON: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    try {
      extra = JSON.parse(headers.trim() === '' ? '{}' : headers);
    } catch (error) {
      setParseError(`The headers are not JSON: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    setParseError(null);
    await post({ payload: value, contentType, headers: extra });
  };

  return (
    <article className="harness-card" aria-labelledby={`${id}title`}>
      <h3 id={`${id}title`}>Webhook {webhook.id}</h3>
      {webhook.description === undefined ? null : <p className="harness-muted">{webhook.description}</p>}
      {webhook.signature === undefined ? (
        <p className="harness-badge harness-badge--off">Unsigned</p>
      ) : (
        <dl className="harness-scheme" aria-label={`Signature scheme of ${webhook.id}`}>
          {signatureFacts(webhook.signature).map((fact) => (
            <div key={fact.label}>
              <dt>{fact.label}</dt>
              <dd>{fact.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {webhook.reply === undefined ? null : (
        <p className="harness-badge harness-badge--ok">Replies at once (reply): a reply is not queued</p>
      )}
      <label htmlFor={`${id}payload`}>Payload of {webhook.id} (JSON)</label>
      <textarea
        id={`${id}payload`}
        className="harness-code-input"
        rows={Math.min(20, Math.max(4, payload.split('\n').length + 1))}
        spellCheck={false}
        value={payload}
        onChange={(event) => setPayload(event.target.value)}
        aria-invalid={parseError === null ? undefined : true}
        aria-describedby={parseError === null ? undefined : `${id}parse`}
      />
      <label htmlFor={`${id}type`}>Content type of {webhook.id}</label>
      <select id={`${id}type`} value={contentType} onChange={(event) => setContentType(event.target.value)}>
        <option value="application/json">application/json</option>
        <option value={FORM}>{FORM} (payload: an object of strings)</option>
      </select>
      <label htmlFor={`${id}headers`}>Extra headers of {webhook.id} (JSON object)</label>
      <textarea
        id={`${id}headers`}
        className="harness-code-input"
        rows={2}
        spellCheck={false}
        value={headers}
        onChange={(event) => setHeaders(event.target.value)}
      />
      {parseError === null ? null : (
        <p id={`${id}parse`} role="alert" className="harness-error">
          {parseError}
        </p>
      )}
      <div className="harness-actions">
        <button type="button" onClick={() => void fire()} disabled={busy}>
          Fire {webhook.id}
        </button>
      </div>
      {answer === null ? null : <TriggerResult label={`Result of ${webhook.id}`} answer={answer} />}
    </article>
  );
}
