import { createContext, type ReactNode, useContext } from 'react';

const ActivationDataContext = createContext<unknown>(null);

export interface IntegrationActivationDataProviderProps {
  /** The activation data the host stored for this account (what the activation form saved). */
  readonly data: unknown;
  readonly children?: ReactNode;
}

/**
 * Supplies the current account's activation data to the widgets below it (the host and the harness
 * mount it).
 * @example <IntegrationActivationDataProvider data={{ workspace: 'w1' }}><NotesWidget /></IntegrationActivationDataProvider>
 */
export function IntegrationActivationDataProvider({
  data,
  children,
}: IntegrationActivationDataProviderProps): ReactNode {
  return <ActivationDataContext.Provider value={data}>{children}</ActivationDataContext.Provider>;
}

/**
 * The activation data of the nearest `IntegrationActivationDataProvider`, or `null` outside one.
 * The type parameter is a claim, not a check: validate the data when its shape matters.
 * @example const settings = useActivationData<{ workspace: string }>();
 */
export function useActivationData<T = unknown>(): T | null {
  const data = useContext(ActivationDataContext);
  return data === undefined ? null : (data as T | null);
}
