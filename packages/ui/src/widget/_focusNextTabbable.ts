const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** Moves focus to the tabbable element after (or before) `from` in document order, as Tab would. */
export function focusNextTabbable(from: HTMLElement, direction: 1 | -1): void {
  const tabbables = [...from.ownerDocument.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (element) =>
      element === from ||
      (element.getClientRects().length > 0 &&
        element.tabIndex >= 0 &&
        element.closest('[role="menu"]') === null),
  );
  const next = tabbables[tabbables.indexOf(from) + direction];
  (next ?? from).focus();
}
