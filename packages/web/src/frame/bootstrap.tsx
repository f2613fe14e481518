// The widget frame's bootstrap: runs in a sandboxed document with an opaque origin (served by the
// host at /web/frames/<version>/<widget>, or /-/tile and /-/activation-form), imports the partner's
// browser bundle, waits for the page's `init`, renders the widget (or the bundle's `tile` or
// `activationForm`) and talks to the page only through the bridge.
import { IntegrationFetchProvider } from '@platform/sdk/hooks';
import { Widget } from '@platform/ui';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { NextIntlClientProvider } from 'next-intl';
import { Component, type ComponentType, type ErrorInfo, type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import {
  BRIDGE_CHANNEL,
  type FrameKind,
  type FrameMessage,
  readPageMessage,
  type WidgetFrameProps,
} from '../bridge/protocol.js';
import { createBridgeFetch } from './bridgeFetch.js';

const root = document.documentElement;
const bundleUrl = root.dataset.bundle ?? '';
const widgetId = root.dataset.widget ?? '';
const kind = (root.dataset.kind ?? 'widget') as FrameKind;
const hostOrigin = root.dataset.origin ?? '';
const mount = document.getElementById('widget') as HTMLElement;

const send = (message: FrameMessage) => window.parent.postMessage(message, hostOrigin);
const bridge = createBridgeFetch(send);

class WidgetErrorBoundary extends Component<{ children: ReactNode }, { error: Error | undefined }> {
  override state = { error: undefined as Error | undefined };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('the widget failed to render', error, info.componentStack);
  }
  override render(): ReactNode {
    if (this.state.error === undefined) return this.props.children;
    return (
      <div role="alert" className="plt-alert plt-alert--error">
        <p>
          <strong>This widget failed to render.</strong> {this.state.error.message}
        </p>
      </div>
    );
  }
}

function Failure({ message }: { readonly message: string }): ReactNode {
  return (
    <div role="alert" className="plt-alert plt-alert--error">
      <p>{message}</p>
    </div>
  );
}

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1 } } });
const reactRoot = createRoot(mount);

function render(Partner: ComponentType<Record<string, unknown>>, props: WidgetFrameProps): void {
  reactRoot.render(
    <StrictMode>
      <NextIntlClientProvider locale="en" messages={{}} timeZone="UTC">
        <QueryClientProvider client={queryClient}>
          <IntegrationFetchProvider fetch={bridge.fetch}>
            {/* The chrome (title, collapse, pin, health) is the host page's; this Widget only gives
                the partner's Widget.DataState its context. */}
            <Widget className="plt-frame-widget" collapsed={props.collapsed} isPinned={props.isPinned}>
              <Widget.Body>
                <WidgetErrorBoundary>
                  <Partner {...(props as unknown as Record<string, unknown>)} />
                </WidgetErrorBoundary>
              </Widget.Body>
            </Widget>
          </IntegrationFetchProvider>
        </QueryClientProvider>
      </NextIntlClientProvider>
    </StrictMode>,
  );
}

let props: WidgetFrameProps | undefined;
let component: ComponentType<Record<string, unknown>> | undefined;

window.addEventListener('message', (event) => {
  if (event.source !== window.parent || event.origin !== hostOrigin) return;
  const message = readPageMessage(event.data);
  if (message === undefined) return;
  if (message.type === 'fetch-result') bridge.settle(message);
  else if (message.type === 'init') props = message.props;
  else if (props !== undefined) props = { ...props, ...message.props };
  if (message.type !== 'fetch-result' && props !== undefined && component !== undefined)
    render(component, props);
});

new ResizeObserver(() => {
  send({ channel: BRIDGE_CHANNEL, type: 'resize', height: Math.ceil(root.getBoundingClientRect().height) });
}).observe(root);

try {
  const bundle = (await import(/* @vite-ignore */ bundleUrl)) as {
    widgets?: Record<string, unknown>;
    tile?: unknown;
    activationForm?: unknown;
  };
  const found =
    kind === 'tile'
      ? bundle.tile
      : kind === 'activation-form'
        ? bundle.activationForm
        : bundle.widgets?.[widgetId];
  if (typeof found !== 'function' && (typeof found !== 'object' || found === null)) {
    const what = kind === 'widget' ? `widget "${widgetId}"` : kind === 'tile' ? 'tile' : 'activation form';
    reactRoot.render(<Failure message={`This integration's bundle has no ${what}.`} />);
  } else {
    component = found as ComponentType<Record<string, unknown>>;
  }
} catch (error) {
  reactRoot.render(<Failure message={`This widget's code did not load (${(error as Error).message}).`} />);
}
// Ready either way: the page then sends init, and shows what the frame shows.
send({ channel: BRIDGE_CHANNEL, type: 'ready' });
