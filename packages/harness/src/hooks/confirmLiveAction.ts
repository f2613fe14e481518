import { LiveActionNotConfirmedError } from '../errors.js';
import type { HarnessMode } from '../types.js';

export interface ConfirmLiveActionOptions {
  readonly mode: HarnessMode;
  /** The action about to run, named in the prompt and the error. */
  readonly action?: string;
  /** Asks the user; default `window.confirm` (blocking, as the spec requires). */
  readonly confirm?: (message: string) => boolean;
  /** Where acceptance is remembered for the tab session; default `sessionStorage`. */
  readonly storage?: Pick<Storage, 'getItem' | 'setItem'>;
}

/**
 * The `sessionStorage` key remembering that live actions of an integration were confirmed.
 * @example liveConfirmationKey('acme-notes') // 'platform-harness:live-confirmed:acme-notes'
 */
export function liveConfirmationKey(slug: string): string {
  return `platform-harness:live-confirmed:${slug}`;
}

/**
 * The gate in front of a live action: fixtures mode never asks; live mode asks once per integration
 * per tab session (remembered in `sessionStorage`, so a reload keeps it and closing the tab ends
 * it). Declining throws `LiveActionNotConfirmedError`: the caller must not send the request.
 * @example
 * confirmLiveAction('acme-notes', { mode: toolbar.mode, action: 'create-note' });
 * await fetch(integrationActionUrl('acme-notes', 'create-note', { accountId }), { method: 'POST', body });
 */
export function confirmLiveAction(slug: string, options: ConfirmLiveActionOptions): void {
  if (options.mode !== 'live') return;
  const key = liveConfirmationKey(slug);
  const storage = options.storage ?? globalThis.sessionStorage;
  if (read(storage, key) === '1') return;

  const confirm = options.confirm ?? browserConfirm;
  const what = options.action === undefined ? 'This action' : `The action "${options.action}"`;
  const accepted = confirm(
    `Live API: ${what} of "${slug}" will run against the real service and may change real data.\n\n` +
      'Continue? You will not be asked again for this integration until this tab is closed.',
  );
  if (!accepted) throw new LiveActionNotConfirmedError(slug, options.action);
  write(storage, key);
}

function browserConfirm(message: string): boolean {
  if (typeof globalThis.confirm !== 'function') {
    throw new Error('confirmLiveAction() needs window.confirm; outside a browser pass options.confirm.');
  }
  return globalThis.confirm(message);
}

// Storage can be missing or throw (sandboxed frames, storage disabled): the gate then asks every
// time, which errs on the side of asking.
function read(storage: Pick<Storage, 'getItem'> | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(storage: Pick<Storage, 'setItem'> | undefined, key: string): void {
  try {
    storage?.setItem(key, '1');
  } catch {
    // Not remembered: the next action asks again.
  }
}
