import { useCallback } from 'react';
import { type ConfirmLiveActionOptions, confirmLiveAction } from './confirmLiveAction.js';
import { useHarnessToolbar } from './HarnessToolbarProvider.js';

/**
 * `confirmLiveAction()` bound to an integration and the toolbar's mode: call the returned function
 * right before sending an action; it returns when the action may go and throws
 * `LiveActionNotConfirmedError` when the user declined.
 * @example
 * const confirmLive = useConfirmLiveAction('acme-notes');
 * const onSave = async () => { confirmLive('create-note'); await save(); };
 */
export function useConfirmLiveAction(
  slug: string,
  options: Pick<ConfirmLiveActionOptions, 'confirm' | 'storage'> = {},
): (action?: string) => void {
  const { mode } = useHarnessToolbar();
  const { confirm, storage } = options;
  return useCallback(
    (action?: string) =>
      confirmLiveAction(slug, {
        mode,
        ...(action === undefined ? {} : { action }),
        ...(confirm === undefined ? {} : { confirm }),
        ...(storage === undefined ? {} : { storage }),
      }),
    [slug, mode, confirm, storage],
  );
}
