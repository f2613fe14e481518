import type { ConnectionDeclaration } from '@platform/sdk/integration';
import { type FormEvent, type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { apiPath, readAnswer, useEntryPage } from './_shellContext.js';

interface ConnectionState {
  readonly kind: ConnectionDeclaration['kind'];
  readonly connected: boolean;
  readonly fields: readonly { name: string; label: string; secret: boolean; set: boolean }[];
}

/**
 * Live mode's form for a `connection` (apiKey or basic): the partner enters every field, the
 * harness server verifies them against the vendor (`PUT connection`) and keeps them as live account
 * secrets; values are never shown again (secret ones are masked while typed).
 */
export function ConnectionFieldsForm(): ReactNode {
  const { entry, fetch } = useEntryPage();
  const id = useId();
  const [state, setState] = useState<ConnectionState | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const path = apiPath(entry.slug, 'connection');

  const apply = useCallback(async (response: Response) => {
    const { body } = await readAnswer(response);
    const answer = body as { ok?: boolean; data?: ConnectionState; error?: { message?: string } } | null;
    if (answer?.ok === true && answer.data !== undefined) {
      setState(answer.data);
      return true;
    }
    setMessage(answer?.error?.message ?? `The connection could not be read (HTTP ${response.status}).`);
    return false;
  }, []);

  useEffect(() => {
    fetch(path).then(apply, (error: unknown) => setMessage(String(error)));
  }, [fetch, path, apply]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage('');
    try {
      const response = await fetch(path, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fields: values }),
      });
      if (await apply(response)) {
        setValues({});
        setMessage('Verified and saved.');
      }
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    }
  };

  const complete = state?.fields.every((field) => (values[field.name] ?? '') !== '') === true;
  return (
    <section aria-labelledby={`${id}title`}>
      <h3 id={`${id}title`}>Connection ({state?.kind ?? '…'}, live mode)</h3>
      {state === null ? (
        <p>Reading the connection…</p>
      ) : (
        <form onSubmit={submit} className="harness-stack">
          <p role="status" data-testid="field-connection-status">
            <span className={`harness-badge harness-badge--${state.connected ? 'ok' : 'off'}`}>
              {state.connected ? 'Connected' : 'Not connected'}
            </span>{' '}
            (kept in the live store; values are never shown)
          </p>
          {state.fields.map((field) => (
            <label key={field.name} htmlFor={`${id}${field.name}`}>
              {field.label} {field.set ? '(set)' : '(not set)'}
              <input
                id={`${id}${field.name}`}
                type={field.secret ? 'password' : 'text'}
                autoComplete="off"
                value={values[field.name] ?? ''}
                onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
              />
            </label>
          ))}
          <button type="submit" disabled={!complete}>
            {state.connected ? 'Verify and replace' : 'Verify and save'}
          </button>
        </form>
      )}
      <p role="status">{message}</p>
    </section>
  );
}
