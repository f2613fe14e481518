import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { HarnessMode, HarnessVariant } from '../types.js';
import type { HarnessToolbarState } from './harnessToolbarState.js';

/** The toolbar state with its setters, as `useHarnessToolbar()` gives it. */
export interface HarnessToolbar extends HarnessToolbarState {
  readonly setVariant: (variant: HarnessVariant) => void;
  readonly setMode: (mode: HarnessMode) => void;
  readonly setRecord: (record: boolean) => void;
}

export interface HarnessToolbarProviderProps {
  /** Where the toolbar starts; see `initialToolbarState(entry)`. Read on mount only. */
  readonly initial?: Partial<HarnessToolbarState>;
  /** Called with the new state after every change (to keep it in the URL, for example). */
  readonly onChange?: (state: HarnessToolbarState) => void;
  readonly children?: ReactNode;
}

const ToolbarContext = createContext<HarnessToolbar | null>(null);

/**
 * Holds the harness toolbar's state (variant, mode, record switch) for the components below it.
 * @example
 * <HarnessToolbarProvider initial={initialToolbarState(entry)}>
 *   <Toolbar />
 *   <WidgetSurface entry={entry} />
 * </HarnessToolbarProvider>
 */
export function HarnessToolbarProvider({
  initial,
  onChange,
  children,
}: HarnessToolbarProviderProps): ReactNode {
  const [state, setState] = useState<HarnessToolbarState>(() => ({
    variant: initial?.variant ?? 'default',
    mode: initial?.mode ?? 'fixtures',
    record: initial?.record ?? false,
  }));

  // Reported after commit, once per new state: comparing with the last state reported keeps Strict
  // Mode's second effect run (and a new onChange identity) from reporting the same state again.
  const reported = useRef(state);
  useEffect(() => {
    if (reported.current === state) return;
    reported.current = state;
    onChange?.(state);
  }, [state, onChange]);

  const toolbar = useMemo<HarnessToolbar>(() => {
    // Functional updates, so two setters called in one event both land.
    const update = (patch: Partial<HarnessToolbarState>) =>
      setState((previous) => {
        const next = { ...previous, ...patch };
        const same =
          next.variant === previous.variant && next.mode === previous.mode && next.record === previous.record;
        return same ? previous : next;
      });
    return {
      ...state,
      setVariant: (variant) => update({ variant }),
      setMode: (mode) => update({ mode }),
      setRecord: (record) => update({ record }),
    };
  }, [state]);

  return <ToolbarContext.Provider value={toolbar}>{children}</ToolbarContext.Provider>;
}

/**
 * The toolbar state and its setters; throws outside a `HarnessToolbarProvider`, where there is no
 * toolbar to read and a silent default could send a request in the wrong mode.
 * @example const { variant, mode, setVariant } = useHarnessToolbar();
 */
export function useHarnessToolbar(): HarnessToolbar {
  const toolbar = useContext(ToolbarContext);
  if (toolbar === null) {
    throw new Error(
      'useHarnessToolbar() needs a HarnessToolbarProvider above it; wrap the harness page in <HarnessToolbarProvider>.',
    );
  }
  return toolbar;
}
