import { faWandMagicSparkles } from '@fortawesome/free-solid-svg-icons';
import { type ReactNode, useCallback, useId, useMemo, useState } from 'react';
import { Icon } from '../icons/Icon.js';
import { WidgetContext, type WidgetContextValue, type WidgetDataStatus } from './_context.js';
import { DEFAULT_WIDGET_LABELS, type WidgetLabels } from './labels.js';
import { WidgetBody } from './WidgetBody.js';
import { WidgetDataState } from './WidgetDataState.js';
import { WidgetHeader } from './WidgetHeader.js';
import { type WidgetHealth, WidgetHealthFooter } from './WidgetHealthFooter.js';
import { WidgetMenuItem } from './WidgetMenuItem.js';

/**
 * What the host (or the harness) resolves for a widget and passes to it: the definition's chrome
 * flags, and the collapsed, pinned and health state it keeps. Spread them onto `<Widget>`.
 */
export interface WidgetChromeProps {
  /** Shows a collapse toggle in the header. */
  readonly isCollapsible?: boolean;
  /** Shows a pin toggle in the header. */
  readonly isPinnable?: boolean;
  /** Shows the AI footer. */
  readonly aiFooterEnabled?: boolean;
  /** Controlled collapsed state (the host keeps it); omit to let the widget keep it. */
  readonly collapsed?: boolean;
  readonly defaultCollapsed?: boolean;
  readonly onCollapsedChange?: (collapsed: boolean) => void;
  /** Controlled pinned state (the host keeps it); omit to let the widget keep it. */
  readonly isPinned?: boolean;
  readonly onPinnedChange?: (pinned: boolean) => void;
  /** What `Widget.HealthFooter` shows when it is given no `health` of its own. */
  readonly health?: WidgetHealth;
  /** Opens the dashboard's assistant on this widget; without it the AI footer's button is disabled. */
  readonly onAskAi?: () => void;
}

export interface WidgetProps extends WidgetChromeProps {
  readonly children?: ReactNode;
  readonly className?: string;
  /** Overrides any of the chrome's English texts. */
  readonly labels?: Partial<WidgetLabels>;
  /** For relative times ("5 minutes ago"). Default `en`, matching the default labels. */
  readonly locale?: string;
}

/**
 * The frame of a dashboard widget: a labelled region holding `Widget.Header`, `Widget.Body`,
 * `Widget.HealthFooter`, honouring the chrome flags. Import `@platform/ui/styles.css` once.
 * @example
 * <Widget {...chrome}>
 *   <Widget.Header title="Notes" menu={<Widget.MenuItem onSelect={openAcme}>Open in Acme</Widget.MenuItem>} />
 *   <Widget.Body>
 *     <Widget.DataState data={notes.data} loading={notes.isPending} error={notes.error} onRefresh={notes.refetch}>
 *       {(data) => <NoteList notes={data} />}
 *     </Widget.DataState>
 *   </Widget.Body>
 *   <Widget.HealthFooter />
 * </Widget>
 */
function WidgetRoot({
  children,
  className,
  labels,
  locale = 'en',
  isCollapsible = false,
  isPinnable = false,
  aiFooterEnabled = false,
  collapsed: collapsedProp,
  defaultCollapsed = false,
  onCollapsedChange,
  isPinned: pinnedProp,
  onPinnedChange,
  health,
  onAskAi,
}: WidgetProps): ReactNode {
  const id = useId();
  const [collapsedState, setCollapsedState] = useState(defaultCollapsed);
  const [pinnedState, setPinnedState] = useState(false);
  const [titled, setTitled] = useState(false);
  const [footered, setFootered] = useState(false);
  const [dataStatus, setDataStatus] = useState<WidgetDataStatus | undefined>(undefined);
  const [root, setRoot] = useState<HTMLElement | null>(null);
  // A widget that is not collapsible is never shown collapsed, whatever state it is handed.
  const collapsed = isCollapsible && (collapsedProp ?? collapsedState);
  const pinned = pinnedProp ?? pinnedState;

  const setCollapsed = useCallback(
    (next: boolean) => {
      setCollapsedState(next);
      onCollapsedChange?.(next);
    },
    [onCollapsedChange],
  );
  const setPinned = useCallback(
    (next: boolean) => {
      setPinnedState(next);
      onPinnedChange?.(next);
    },
    [onPinnedChange],
  );

  const merged = useMemo(() => ({ ...DEFAULT_WIDGET_LABELS, ...labels }), [labels]);
  const context = useMemo<WidgetContextValue>(
    () => ({
      titleId: `${id}title`,
      bodyId: `${id}body`,
      labels: merged,
      locale,
      isCollapsible,
      collapsed,
      setCollapsed,
      isPinnable,
      pinned,
      setPinned,
      health,
      titled,
      setTitled,
      footered,
      setFootered,
      dataStatus,
      setDataStatus,
      root,
    }),
    [
      id,
      merged,
      locale,
      isCollapsible,
      collapsed,
      setCollapsed,
      isPinnable,
      pinned,
      setPinned,
      health,
      titled,
      footered,
      dataStatus,
      root,
    ],
  );

  return (
    <WidgetContext.Provider value={context}>
      <section
        ref={setRoot}
        className={['plt-widget', className ?? ''].filter(Boolean).join(' ')}
        data-collapsed={collapsed ? '' : undefined}
        data-pinned={pinned ? '' : undefined}
        aria-labelledby={titled ? context.titleId : undefined}
      >
        {children}
        {aiFooterEnabled ? (
          <div className="plt-widget__ai" hidden={collapsed}>
            <button
              type="button"
              className="plt-button plt-button--ghost"
              onClick={onAskAi}
              disabled={onAskAi === undefined}
              title={onAskAi === undefined ? merged.askAiUnavailable : undefined}
            >
              <Icon icon={faWandMagicSparkles} />
              {merged.askAi}
            </button>
          </div>
        ) : null}
      </section>
    </WidgetContext.Provider>
  );
}

/** The widget chrome; see `WidgetProps` and the parts `Widget.Header`, `Widget.MenuItem`, `Widget.Body`, `Widget.HealthFooter`, `Widget.DataState`. */
export const Widget = Object.assign(WidgetRoot, {
  Header: WidgetHeader,
  MenuItem: WidgetMenuItem,
  Body: WidgetBody,
  HealthFooter: WidgetHealthFooter,
  DataState: WidgetDataState,
});
