/**
 * The props the harness and the host give a partner's marketplace tile (`tile` in the harness
 * registry).
 * @example export function AcmeTile({ name, isActivated, onActivate }: MarketplaceTileProps) { ... }
 */
export interface MarketplaceTileProps {
  readonly slug: string;
  /** Display name. */
  readonly name: string;
  readonly description: string;
  /** Whether the current account has activated the integration. */
  readonly isActivated: boolean;
  /** Opens the activation flow (the host's activation dialog; the harness's Activation surface). */
  readonly onActivate: () => void;
}

/**
 * The props the harness and the host give a partner's activation form (`activationForm` in the
 * harness registry). Activation itself goes through `useActivateIntegration()`.
 * @example export function AcmeActivation(props: ActivationFormProps) { return <OAuthActivationForm {...props} ... />; }
 */
export interface ActivationFormProps {
  readonly slug: string;
  /** The account being activated. */
  readonly accountId: string;
  /** Same-origin path to come back to after a redirect (OAuth). Default: the current page. */
  readonly returnPath?: string;
}
