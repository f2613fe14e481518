import { Widget, type WidgetHealth } from '@platform/ui';
import type { DashboardResponse, DashboardWidget } from '@platform/wire';
import { BREAKPOINTS, type Breakpoint, type GridRect } from '@platform/wire/dashboard-layout';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useSyncExternalStore } from 'react';
import ReactGridLayout, { type Layout, useContainerWidth } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import type { WidgetFrameProps } from '../../bridge/protocol.js';
import { ApiError, api } from '../api.js';
import { WidgetFrame } from '../dashboard/WidgetFrame.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import { ErrorNotice, Loading } from '../ui.js';

const ROW_HEIGHT = 56;
const MARGIN: [number, number] = [16, 16];
const UNPINNED_OFFSET = 100_000;

const queries = {
  lg: `(min-width: ${BREAKPOINTS.lg.minWidth}px)`,
  md: `(min-width: ${BREAKPOINTS.md.minWidth}px)`,
};
function currentBreakpoint(): Breakpoint {
  if (window.matchMedia(queries.lg).matches) return 'lg';
  if (window.matchMedia(queries.md).matches) return 'md';
  return 'sm';
}
function subscribeToWidth(listener: () => void): () => void {
  const lists = [window.matchMedia(queries.lg), window.matchMedia(queries.md)];
  for (const list of lists) list.addEventListener('change', listener);
  return () => {
    for (const list of lists) list.removeEventListener('change', listener);
  };
}
/** The viewport's breakpoint: lg from 1200 px (12 columns), md from 768 px (8), else sm (1). */
function useBreakpoint(): Breakpoint {
  return useSyncExternalStore(subscribeToWidth, currentBreakpoint);
}

/** The host's health in the chrome's words: ok is healthy, attention degraded, error failing. */
function chromeHealth(health: DashboardWidget['health']): WidgetHealth {
  if (health.status === 'ok') return { status: 'healthy' };
  const first = health.items[0];
  return {
    status: health.status === 'error' ? 'failing' : 'degraded',
    ...(first === undefined ? {} : { message: first.message }),
  };
}

/** What the partner's component receives: host-resolved, never from the definition. */
function frameProps(widget: DashboardWidget, accountId: string): WidgetFrameProps {
  return {
    accountId,
    workspaceId: accountId,
    widgetConfigId: widget.widgetConfigId,
    collapsed: widget.collapsed,
    isPinned: widget.isPinned,
    health: chromeHealth(widget.health),
    integrationMetadata: {
      slug: widget.integration.slug,
      name: widget.integration.name,
      version: String(widget.integration.version),
      publisher: widget.integration.publisher,
    },
  };
}

/**
 * `/`: every widget of every integration activated in the account, on a grid (12 columns from
 * 1200 px, 8 from 768 px, one below), each in its own sandboxed frame inside the host's chrome.
 * Moves and resizes, collapse, pin, remove and re-add are kept on the host per user and account;
 * pinned widgets come first.
 */
export function Dashboard(): ReactNode {
  const { account } = useSession();
  if (account === undefined)
    return (
      <>
        <h1>Dashboard</h1>
        <p>You are not a member of any account yet; ask an account owner to add you.</p>
      </>
    );
  return <AccountDashboard accountSlug={account.slug} accountId={account.id} />;
}

function AccountDashboard(props: { accountSlug: string; accountId: string }): ReactNode {
  const queryClient = useQueryClient();
  const breakpoint = useBreakpoint();
  const base = `/api/platform/accounts/${encodeURIComponent(props.accountSlug)}/dashboard`;
  const key = ['dashboard', props.accountSlug];
  const dashboard = useQuery({ queryKey: key, queryFn: () => api<DashboardResponse>('GET', base) });
  const saved = (answer: DashboardResponse) => queryClient.setQueryData(key, answer);
  const onConflict = (error: unknown) => {
    if (error instanceof ApiError && error.status === 409)
      void queryClient.invalidateQueries({ queryKey: key });
  };
  const saveLayout = useMutation({
    mutationFn: (input: {
      version: number;
      layouts: Record<string, Partial<Record<Breakpoint, GridRect>>>;
    }) => api<DashboardResponse>('PUT', `${base}/layout`, input),
    onSuccess: saved,
    onError: onConflict,
  });
  const patch = useMutation({
    mutationFn: (input: {
      id: string;
      body: { collapsed?: boolean; isPinned?: boolean; removed?: boolean };
    }) => api<DashboardResponse>('PATCH', `${base}/widgets/${encodeURIComponent(input.id)}`, input.body),
    onSuccess: saved,
    onError: onConflict,
  });
  const reset = useMutation({
    mutationFn: () => api<DashboardResponse>('POST', `${base}/reset`),
    onSuccess: saved,
  });
  const failure = saveLayout.error ?? patch.error ?? reset.error;

  return (
    <>
      <div className="app-dashboard-head">
        <h1>Dashboard</h1>
        <button
          type="button"
          onClick={() => reset.mutate()}
          disabled={reset.isPending || dashboard.isPending}
        >
          Reset layout
        </button>
      </div>
      {failure !== null && (
        <p role="alert" className="app-error">
          {failure instanceof ApiError ? failure.text : 'The change was not saved; try again.'}
        </p>
      )}
      {dashboard.isPending && <Loading label="Loading the dashboard" />}
      {dashboard.isError && <ErrorNotice error={dashboard.error} />}
      {dashboard.data !== undefined && (
        <>
          {dashboard.data.widgets.length === 0 && dashboard.data.removed.length === 0 && (
            <p>
              No integration with widgets is activated in this account. Find one in the{' '}
              <Link to="/marketplace">Marketplace</Link>.
            </p>
          )}
          <Grid
            breakpoint={breakpoint}
            accountId={props.accountId}
            widgets={dashboard.data.widgets}
            onLayout={(layouts) => saveLayout.mutate({ version: dashboard.data.version, layouts })}
            onPatch={(id, body) => patch.mutate({ id, body })}
          />
          {dashboard.data.removed.length > 0 && (
            <section aria-labelledby="removed-title">
              <h2 id="removed-title">Removed widgets</h2>
              <ul className="app-list">
                {dashboard.data.removed.map((widget) => (
                  <li key={widget.widgetConfigId}>
                    {widget.widget.name} <span className="app-muted">({widget.integration.name})</span>{' '}
                    <button
                      type="button"
                      onClick={() => patch.mutate({ id: widget.widgetConfigId, body: { removed: false } })}
                    >
                      Add back {widget.widget.name}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </>
  );
}

function Grid(props: {
  breakpoint: Breakpoint;
  accountId: string;
  widgets: readonly DashboardWidget[];
  onLayout: (layouts: Record<string, Partial<Record<Breakpoint, GridRect>>>) => void;
  onPatch: (id: string, body: { collapsed?: boolean; isPinned?: boolean; removed?: boolean }) => void;
}): ReactNode {
  const { width, containerRef, mounted } = useContainerWidth();
  const { breakpoint, widgets } = props;
  const columns = BREAKPOINTS[breakpoint].columns;
  // Pinned widgets first: the others start below every pinned one and the grid's vertical
  // compaction closes the gap; a collapsed widget takes one row.
  const layout = useMemo<Layout>(
    () =>
      widgets.map((widget) => {
        const rect = widget.layout[breakpoint];
        return {
          i: widget.widgetConfigId,
          x: rect.x,
          y: (widget.isPinned ? 0 : UNPINNED_OFFSET) + rect.y,
          w: rect.w,
          h: widget.collapsed ? 1 : rect.h,
          minH: 1,
        };
      }),
    [widgets, breakpoint],
  );

  const moved = (next: Layout) => {
    const changes: Record<string, Partial<Record<Breakpoint, GridRect>>> = {};
    for (const item of next) {
      const widget = widgets.find((found) => found.widgetConfigId === item.i);
      if (widget === undefined) continue;
      const before = widget.layout[breakpoint];
      const h = widget.collapsed ? before.h : item.h;
      if (before.x !== item.x || before.y !== item.y || before.w !== item.w || before.h !== h)
        changes[item.i] = { [breakpoint]: { x: item.x, y: item.y, w: item.w, h } };
    }
    if (Object.keys(changes).length > 0) props.onLayout(changes);
  };

  return (
    <div ref={containerRef} className="app-grid">
      {mounted && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: columns, rowHeight: ROW_HEIGHT, margin: MARGIN, containerPadding: [0, 0] }}
          dragConfig={{
            enabled: breakpoint !== 'sm',
            handle: '.plt-widget__header',
            cancel: 'button, a, [role="menu"]',
          }}
          resizeConfig={{ enabled: breakpoint !== 'sm' }}
          onDragStop={(next) => moved(next)}
          onResizeStop={(next) => moved(next)}
        >
          {widgets.map((widget) => {
            const health = chromeHealth(widget.health);
            return (
              <div key={widget.widgetConfigId} className="app-grid-item">
                <Widget
                  isCollapsible={widget.widget.isCollapsible}
                  isPinnable={widget.widget.isPinnable}
                  collapsed={widget.collapsed}
                  onCollapsedChange={(collapsed) => props.onPatch(widget.widgetConfigId, { collapsed })}
                  isPinned={widget.isPinned}
                  onPinnedChange={(isPinned) => props.onPatch(widget.widgetConfigId, { isPinned })}
                  {...(chromeHealth(widget.health) === undefined
                    ? {}
                    : { health: chromeHealth(widget.health) })}
                >
                  <Widget.Header
                    title={widget.widget.name}
                    headingLevel={2}
                    menu={
                      <Widget.MenuItem
                        destructive
                        onSelect={() => props.onPatch(widget.widgetConfigId, { removed: true })}
                      >
                        Remove from dashboard
                      </Widget.MenuItem>
                    }
                  />
                  <Widget.Body>
                    <WidgetFrame
                      versionId={widget.integration.versionId}
                      widgetId={widget.widget.id}
                      slug={widget.integration.slug}
                      accountId={props.accountId}
                      title={widget.widget.name}
                      props={frameProps(widget, props.accountId)}
                    />
                  </Widget.Body>
                  <Widget.HealthFooter />
                </Widget>
              </div>
            );
          })}
        </ReactGridLayout>
      )}
    </div>
  );
}
