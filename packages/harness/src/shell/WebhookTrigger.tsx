import type { ReactNode } from 'react';
import { useId, useState } from 'react';
import type { HarnessDefinition } from '../types.js';
import { exampleFromSchema } from './_exampleFromSchema.js';
import { signatureFacts } from './_signatureSummary.js';
import { useTriggerCall } from './_useTriggerCall.js';
import { TriggerResult } from './TriggerResult.js';

type Webhook = NonNullable<HarnessDefinition['webhooks']>[number];

/** One webhook: its signature scheme, a payload editor prefilled from its schema, Fire, the result. */
export function WebhookTrigger({ webhook }: { readonly webhook: Webhook }): ReactNode {
  const id = useId();
  const [payload, setPayload] = useState(() =>
    JSON.stringify(exampleFromSchema(webhook.payloadSchema), null, 2),
  );
  const [parseError, setParseError] = useState<string | null>(null);
  const { answer, busy, fire: post } = useTriggerCall(`triggers/webhooks/${encodeURIComponent(webhook.id)}`);

  const fire = async () => {
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch (error) {
      setParseError(`The payload is not JSON: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    setParseError(null);
    await post({ payload: value });
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
