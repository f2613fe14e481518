import {
  IntegrationActivationDataProvider,
  IntegrationActivationProvider,
  IntegrationFetchProvider,
} from '@platform/sdk/hooks';
import { QueryClientProvider } from '@tanstack/react-query';
import { NextIntlClientProvider } from 'next-intl';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import {
  createSeededQueryClient,
  effectiveToolbarState,
  HarnessToolbarProvider,
  type HarnessToolbarState,
  harnessRequestHeaders,
  useHarnessFetch,
  useHarnessToolbar,
} from '../hooks/index.js';
import type { HarnessRegistryEntry } from '../types.js';
import { createRequestLog, type RequestLogStore } from './_requestLog.js';
import { Link, type ShellRoute, surfacePath, usePathname } from './_router.js';
import { readSavedToolbar, saveToolbar } from './_savedToolbar.js';
import {
  type ActivationState,
  apiPath,
  EntryPageContext,
  type EntryPageContextValue,
  readAnswer,
  type ShellOptions,
} from './_shellContext.js';
import { ActivationSurface } from './ActivationSurface.js';
import { ErrorBoundary } from './ErrorBoundary.js';
import { RequestLog } from './RequestLog.js';
import { TileSurface } from './TileSurface.js';
import { Toolbar } from './Toolbar.js';
import { ToolsSurface } from './ToolsSurface.js';
import { TriggersSurface } from './TriggersSurface.js';
import { WidgetsSurface } from './WidgetsSurface.js';

type EntryRoute = Exclude<ShellRoute, { page: 'index' | 'not-found' }>;

const SURFACES = [
  { page: 'widgets', label: 'Widgets' },
  { page: 'tile', label: 'Marketplace tile' },
  { page: 'activation', label: 'Activation' },
  { page: 'triggers', label: 'Triggers' },
  { page: 'tools', label: 'Tools' },
] as const;

export interface EntryPageProps {
  readonly entry: HarnessRegistryEntry;
  readonly route: EntryRoute;
  readonly options: ShellOptions;
  readonly activation: ActivationState;
}

/** One integration's page: title, toolbar, surface navigation, the surface, and the request log. */
export function EntryPage({ entry, route, options, activation }: EntryPageProps): ReactNode {
  const [log] = useState(() => createRequestLog());
  const [initialToolbar] = useState(() => readSavedToolbar(entry));
  const slug = entry.slug;
  const rememberToolbar = useCallback((state: HarnessToolbarState) => saveToolbar(slug, state), [slug]);
  const surface = SURFACES.find((candidate) => candidate.page === route.page) ?? SURFACES[0];
  return (
    <HarnessToolbarProvider initial={initialToolbar} onChange={rememberToolbar}>
      <div className="harness-entry">
        <div className="harness-entry__head">
          <h1>{entry.name}</h1>
          <p className="harness-muted">{entry.description}</p>
          <Toolbar entry={entry} />
          <nav aria-label="Surfaces" className="harness-tabs">
            <ul>
              {SURFACES.map((candidate) => (
                <li key={candidate.page}>
                  <Link href={surfacePath(entry.slug, candidate.page)}>{candidate.label}</Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <section className="harness-surface" aria-labelledby="harness-surface-title">
          <h2 id="harness-surface-title">{surface.label}</h2>
          <ModeBoundary entry={entry}>
            <EntryProviders entry={entry} options={options} activation={activation} log={log}>
              <Surface route={route} />
            </EntryProviders>
          </ModeBoundary>
        </section>
        <RequestLog store={log} />
      </div>
    </HarnessToolbarProvider>
  );
}

// A broken fixture throws while the page's fetch is made: shown here, and tried again when the
// toolbar or the surface changes (another variant may be fine).
function ModeBoundary({ entry, children }: { entry: HarnessRegistryEntry; children: ReactNode }): ReactNode {
  const toolbar = useHarnessToolbar();
  const pathname = usePathname();
  const { variant, mode } = effectiveToolbarState(entry, toolbar);
  return (
    <ErrorBoundary
      key={`${variant}:${mode}`}
      resetKey={pathname}
      what={`The ${entry.name} page failed to render.`}
    >
      {children}
    </ErrorBoundary>
  );
}

function Surface({ route }: { route: EntryRoute }): ReactNode {
  switch (route.page) {
    case 'widgets':
      return <WidgetsSurface {...(route.widgetId === undefined ? {} : { widgetId: route.widgetId })} />;
    case 'tile':
      return <TileSurface />;
    case 'activation':
      return <ActivationSurface />;
    case 'triggers':
      return <TriggersSurface />;
    case 'tools':
      return <ToolsSurface />;
  }
}

interface EntryProvidersProps {
  readonly entry: HarnessRegistryEntry;
  readonly options: ShellOptions;
  readonly activation: ActivationState;
  readonly log: RequestLogStore;
  readonly children: ReactNode;
}

const MESSAGES = {};
const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The providers the host mounts around a partner's components, with the harness's values. */
function EntryProviders({ entry, options, activation, log, children }: EntryProvidersProps): ReactNode {
  const toolbar = useHarnessToolbar();
  const state = useMemo(
    () =>
      effectiveToolbarState(entry, { variant: toolbar.variant, mode: toolbar.mode, record: toolbar.record }),
    [entry, toolbar.variant, toolbar.mode, toolbar.record],
  );
  const fetch = useHarnessFetch(entry, {
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.pageOrigin === undefined ? {} : { pageOrigin: options.pageOrigin }),
    onRequest: log.add,
  });
  const queryClient = useMemo(
    () =>
      createSeededQueryClient({
        seeds: state.mode === 'live' ? (entry.live?.seeds ?? []) : undefined,
        variant: state.variant,
      }),
    [entry, state.mode, state.variant],
  );

  const callServer = useCallback<EntryPageContextValue['callServer']>(
    async (rest, init = {}) => {
      const headers = new Headers(init.headers);
      for (const [name, value] of Object.entries(harnessRequestHeaders(state))) headers.set(name, value);
      const origin = options.pageOrigin ?? window.location.origin;
      const url = `${origin}${apiPath(entry.slug, rest)}`;
      const method = (init.method ?? 'GET').toUpperCase();
      const report = (answer: { status?: number; error?: string }) =>
        log.add({
          method,
          url,
          variant: state.variant,
          mode: state.mode,
          answer: { kind: 'server', ...answer },
        });
      try {
        const response = await (options.fetch ?? globalThis.fetch)(new Request(url, { ...init, headers }));
        report({ status: response.status });
        return await readAnswer(response);
      } catch (error) {
        report({ error: error instanceof Error ? error.message : String(error) });
        throw error;
      }
    },
    [entry.slug, state, options.fetch, options.pageOrigin, log],
  );

  const context = useMemo<EntryPageContextValue>(
    () => ({ entry, toolbar: state, fetch, callServer, activation }),
    [entry, state, fetch, callServer, activation],
  );

  return (
    <EntryPageContext.Provider value={context}>
      <NextIntlClientProvider locale="en" messages={MESSAGES} timeZone={TIME_ZONE}>
        <QueryClientProvider client={queryClient}>
          <IntegrationFetchProvider fetch={fetch}>
            <IntegrationActivationProvider activate={activation.activate} deactivate={activation.deactivate}>
              <IntegrationActivationDataProvider data={activation.data}>
                {children}
              </IntegrationActivationDataProvider>
            </IntegrationActivationProvider>
          </IntegrationFetchProvider>
        </QueryClientProvider>
      </NextIntlClientProvider>
    </EntryPageContext.Provider>
  );
}
