import { type FormEvent, type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import type { LocalCredential } from '../api/routes/localSetup.js';
import { apiPath, readAnswer, useEntryPage } from './_shellContext.js';

interface LocalSetup {
  readonly file: string;
  readonly credentials: readonly LocalCredential[];
  readonly otherNames: readonly string[];
}

const KIND_LABELS: Record<LocalCredential['kind'], string> = {
  oauth_client_id: 'OAuth client id',
  oauth_client_secret: 'OAuth client secret',
  webhook_signing_secret: 'Webhook signing secret',
};

/**
 * Live mode's admin credentials (`GET|POST local-setup`): which are needed and set; a value can be
 * set or removed but is never shown (the server never sends it back).
 */
export function LocalSetupForm(): ReactNode {
  const { entry, fetch } = useEntryPage();
  const [setup, setSetup] = useState<LocalSetup | null>(null);
  const [message, setMessage] = useState<string>('');
  const path = apiPath(entry.slug, 'local-setup');

  const apply = useCallback(async (response: Response) => {
    const { body } = await readAnswer(response);
    const answer = body as { ok?: boolean; data?: LocalSetup; error?: { message?: string } } | null;
    if (answer?.ok === true && answer.data !== undefined) {
      setSetup(answer.data);
      return true;
    }
    setMessage(answer?.error?.message ?? `The local setup could not be read (HTTP ${response.status}).`);
    return false;
  }, []);

  useEffect(() => {
    fetch(path).then(apply, (error: unknown) => setMessage(String(error)));
  }, [fetch, path, apply]);

  const change = async (secrets: Record<string, string | null>, done: string) => {
    setMessage('');
    try {
      const response = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secrets }),
      });
      if (await apply(response)) setMessage(done);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <section aria-labelledby="harness-local-setup">
      <h3 id="harness-local-setup">Local setup (live mode)</h3>
      {setup === null ? (
        <p>Reading the local setup…</p>
      ) : (
        <>
          <p className="harness-muted">
            Values are kept in <code>{setup.file}</code> on this machine and are never shown here.
          </p>
          {setup.credentials.length === 0 ? <p>{entry.name} needs no admin credentials.</p> : null}
          <ul className="harness-credentials">
            {setup.credentials.map((credential) => (
              <CredentialRow
                key={credential.name}
                credential={credential}
                onSet={(value) => change({ [credential.name]: value }, `${credential.name} saved.`)}
                onRemove={() => change({ [credential.name]: null }, `${credential.name} removed.`)}
              />
            ))}
          </ul>
        </>
      )}
      <p role="status">{message}</p>
    </section>
  );
}

function CredentialRow({
  credential,
  onSet,
  onRemove,
}: {
  readonly credential: LocalCredential;
  readonly onSet: (value: string) => Promise<void>;
  readonly onRemove: () => Promise<void>;
}): ReactNode {
  const id = useId();
  const [value, setValue] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (value === '') return;
    await onSet(value);
    setValue('');
  };
  const kind = KIND_LABELS[credential.kind];
  return (
    <li>
      <form onSubmit={submit} className="harness-credential">
        <label htmlFor={`${id}value`}>
          <code>{credential.name}</code> ({kind}
          {credential.webhookId === undefined ? '' : ` of webhook ${credential.webhookId}`})
        </label>
        <span className={`harness-badge harness-badge--${credential.set ? 'ok' : 'off'}`}>
          {credential.set ? 'Set' : 'Not set'}
        </span>
        <input
          id={`${id}value`}
          type="password"
          autoComplete="off"
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <button type="submit" disabled={value === ''}>
          {credential.set ? 'Replace' : 'Set'} {credential.name}
        </button>
        {credential.set ? (
          <button type="button" onClick={() => void onRemove()}>
            Remove {credential.name}
          </button>
        ) : null}
      </form>
    </li>
  );
}
