import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { HarnessRegistry } from '../types.js';
import { HarnessShell, type HarnessShellProps } from './HarnessShell.js';

export interface MountHarnessShellOptions extends Omit<HarnessShellProps, 'registry'> {
  /** `harnessIntegrations` from `harness.config.ts`. */
  readonly registry: HarnessRegistry;
  /** The element to render into (`#root` of the generated `index.html`). */
  readonly root: Element;
}

/**
 * Renders the harness shell into `root` (what the generated `main.tsx` calls); returns the React
 * root, so a caller can unmount it.
 * @example mountHarnessShell({ registry: harnessIntegrations, root: document.getElementById('root')! });
 */
export function mountHarnessShell({ root, ...props }: MountHarnessShellOptions): Root {
  const reactRoot = createRoot(root);
  reactRoot.render(
    <StrictMode>
      <HarnessShell {...props} />
    </StrictMode>,
  );
  return reactRoot;
}
