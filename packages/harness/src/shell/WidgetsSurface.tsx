import { Widget } from '@platform/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { createSeededQueryClient } from '../hooks/index.js';
import type { HarnessWidget } from '../types.js';
import { Link, surfacePath } from './_router.js';
import { useEntryPage } from './_shellContext.js';
import { ErrorBoundary } from './ErrorBoundary.js';

/** `/<slug>/widgets` (every widget) and `/<slug>/widgets/<id>` (one), laid out by `width`. */
export function WidgetsSurface({ widgetId }: { readonly widgetId?: string }): ReactNode {
  const { entry, toolbar } = useEntryPage();
  const widgets = widgetId === undefined ? entry.widgets : entry.widgets.filter((w) => w.id === widgetId);
  if (widgetId !== undefined && widgets.length === 0) {
    return (
      <p role="status">
        {entry.name} has no widget “{widgetId}”.{' '}
        <Link href={surfacePath(entry.slug, 'widgets')}>Show all widgets</Link>
      </p>
    );
  }
  if (widgets.length === 0) return <p role="status">No widgets are registered for {entry.name}.</p>;
  return (
    <>
      {widgetId === undefined ? (
        <nav aria-label="Widgets" className="harness-chips">
          <ul>
            {entry.widgets.map((widget) => (
              <li key={widget.id}>
                <Link href={surfacePath(entry.slug, 'widgets', widget.id)}>{widget.title}</Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : (
        <p>
          <Link href={surfacePath(entry.slug, 'widgets')}>All widgets</Link>
        </p>
      )}
      <div className="harness-grid">
        {widgets.map((widget) => (
          // Remounted on a variant or mode change: the spec rebuilds the widget subtree.
          <WidgetSlot key={`${widget.id}:${toolbar.variant}:${toolbar.mode}`} widget={widget} />
        ))}
      </div>
    </>
  );
}

function WidgetSlot({ widget }: { readonly widget: HarnessWidget }): ReactNode {
  const { entry, toolbar } = useEntryPage();
  const client = useMemo(
    () =>
      createSeededQueryClient({
        seeds: toolbar.mode === 'live' ? (entry.live?.seeds ?? []) : widget.seeds,
        variant: toolbar.variant,
      }),
    [entry, widget, toolbar.mode, toolbar.variant],
  );
  return (
    <div
      className={`harness-grid__item harness-grid__item--${widget.width ?? 'half'} harness-partner`}
      data-testid={`widget-${widget.id}`}
    >
      <Widget
        isCollapsible={widget.isCollapsible ?? false}
        isPinnable={widget.isPinnable ?? false}
        aiFooterEnabled={widget.aiFooterEnabled ?? false}
      >
        <Widget.Header title={widget.title} />
        <Widget.Body>
          <ErrorBoundary what={`The widget “${widget.title}” failed to render.`}>
            <QueryClientProvider client={client}>
              <widget.component />
            </QueryClientProvider>
          </ErrorBoundary>
        </Widget.Body>
      </Widget>
    </div>
  );
}
