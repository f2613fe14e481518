import { useIntegrationFetch } from '@platform/sdk/hooks';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';

/** What the form saves as the activation's data. */
export interface AcmeNotesActivationData {
  /** The folder the account's team files new notes in first. */
  readonly preferredFolder: string;
}

const ACTIVATION = '/api/integrations/acme-notes/activation';
const forAccount = (accountId: string) => `?accountId=${encodeURIComponent(accountId)}`;

/**
 * The activation form (`platform.json` `activationForm`), shown by the host after Activate: the
 * team's preferred folder, read from and saved into the activation data
 * (`PUT /api/integrations/acme-notes/activation/data`, which only an activation form may send).
 */
export default function AcmeNotesActivationForm({ accountId }: { readonly accountId: string }): ReactNode {
  const fetch = useIntegrationFetch();
  const [folder, setFolder] = useState('');
  const [status, setStatus] = useState('');
  useEffect(() => {
    let live = true;
    void (async () => {
      const response = await fetch(`${ACTIVATION}${forAccount(accountId)}`, {
        headers: { accept: 'application/json' },
      });
      if (!response.ok) return;
      const body = (await response.json()) as { data?: { data?: Partial<AcmeNotesActivationData> | null } };
      const saved = body.data?.data?.preferredFolder;
      if (live && typeof saved === 'string') setFolder(saved);
    })();
    return () => {
      live = false;
    };
  }, [fetch, accountId]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const data: AcmeNotesActivationData = { preferredFolder: folder.trim() || 'inbox' };
    const response = await fetch(`${ACTIVATION}/data${forAccount(accountId)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data }),
    });
    setStatus(response.ok ? 'Saved.' : `Not saved: Acme Notes answered ${response.status}.`);
  };

  return (
    <form onSubmit={save}>
      <label>
        Preferred folder
        <input value={folder} placeholder="inbox" onChange={(event) => setFolder(event.target.value)} />
      </label>{' '}
      <button type="submit">Save</button>
      <p role="status">{status}</p>
    </form>
  );
}
