import { createContext, type ReactNode, useContext, useMemo } from 'react';

/** What an `IntegrationActivationProvider` does when a widget or form activates or deactivates. */
export interface IntegrationActivation {
  /** Persists the activation for the current account, with the data the form collected. */
  readonly activate: (data?: unknown) => Promise<void>;
  readonly deactivate: () => Promise<void>;
}

const ActivationContext = createContext<IntegrationActivation | null>(null);

export interface IntegrationActivationProviderProps extends IntegrationActivation {
  readonly children?: ReactNode;
}

/**
 * Supplies activation and deactivation to the forms and widgets below it (the host and the
 * harness mount it; tests mount it with their own functions).
 * @example <IntegrationActivationProvider activate={save} deactivate={remove}><ActivationForm /></IntegrationActivationProvider>
 */
export function IntegrationActivationProvider({
  activate,
  deactivate,
  children,
}: IntegrationActivationProviderProps): ReactNode {
  const value = useMemo(() => ({ activate, deactivate }), [activate, deactivate]);
  return <ActivationContext.Provider value={value}>{children}</ActivationContext.Provider>;
}

/** The rejection of `useActivateIntegration()` / `useDeactivateIntegration()` when no provider is mounted. */
export class ActivationProviderMissingError extends Error {
  override readonly name = 'ActivationProviderMissingError';
  readonly code = 'ACTIVATION_PROVIDER_MISSING';

  constructor(hook: string) {
    super(
      `${hook} found no IntegrationActivationProvider above this component, so nothing was activated or deactivated. The host and the harness mount one; in a test, wrap the component in <IntegrationActivationProvider activate={...} deactivate={...}>.`,
    );
  }
}

/**
 * A function that activates the integration for the current account through the nearest
 * `IntegrationActivationProvider`; it rejects with `ActivationProviderMissingError` when there is none.
 * @example const activate = useActivateIntegration(); await activate({ workspace: 'w1' });
 */
export function useActivateIntegration(): (data?: unknown) => Promise<void> {
  const activation = useContext(ActivationContext);
  if (activation === null) {
    return () => Promise.reject(new ActivationProviderMissingError('useActivateIntegration()'));
  }
  return activation.activate;
}

/**
 * A function that deactivates the integration for the current account through the nearest
 * `IntegrationActivationProvider`; it rejects with `ActivationProviderMissingError` when there is none.
 * @example const deactivate = useDeactivateIntegration(); await deactivate();
 */
export function useDeactivateIntegration(): () => Promise<void> {
  const activation = useContext(ActivationContext);
  if (activation === null) {
    return () => Promise.reject(new ActivationProviderMissingError('useDeactivateIntegration()'));
  }
  return activation.deactivate;
}
