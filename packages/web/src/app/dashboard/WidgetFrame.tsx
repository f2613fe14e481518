import { type ReactNode, useEffect, useRef, useState } from 'react';
import {
  BRIDGE_CHANNEL,
  type FrameKind,
  MAX_FRAME_HEIGHT,
  type PageMessage,
  readFrameMessage,
  type WidgetFrameProps,
} from '../../bridge/protocol.js';
import { relayDecision } from '../../bridge/relay.js';

/** How long a frame has to say `ready` before the page shows it failed. */
export const FRAME_READY_TIMEOUT_MS = 10_000;
const MIN_FRAME_HEIGHT = 48;

export interface WidgetFrameComponentProps {
  /** The installed version whose browser bundle holds the widget. */
  readonly versionId: string;
  /** The widget's id; unused by a tile or an activation form. */
  readonly widgetId: string;
  /** What the frame renders: the widget (the default), the version's `tile` or `activation-form`. */
  readonly kind?: FrameKind;
  /** The widget's integration: the only one whose routes the frame may reach. */
  readonly slug: string;
  /** The account the page acts for: every relayed request is made for it, whatever the frame says. */
  readonly accountId: string;
  /** The frame's accessible name (the widget's name). */
  readonly title: string;
  /** What the widget component receives (sent with `init`, updates as `props`). */
  readonly props: WidgetFrameProps;
}

/**
 * One partner widget in a sandboxed iframe (`allow-scripts allow-forms` only, forms going nowhere under the frame's `form-action 'none'`: an opaque origin, no top
 * navigation, no popups) of `/web/frames/<versionId>/<widgetId>`. Accepts messages only from that
 * frame, relays its allowed requests (`relayDecision`) to this origin with the user's session,
 * sends `init` after `ready` and `props` on changes, sizes the frame to its `resize` height
 * (clamped), and shows "This widget did not load" when no `ready` comes within 10 s. With `kind`
 * it frames the version's tile (`/web/frames/<versionId>/-/tile`) or activation form
 * (`/-/activation-form`, the one frame the relay lets write its activation's data).
 * @example <WidgetFrame versionId={v.id} widgetId="board" slug="acme-notes" accountId={account.id} title="Board" props={props} />
 */
export function WidgetFrame(input: WidgetFrameComponentProps): ReactNode {
  const { versionId, widgetId, slug, accountId, title, props } = input;
  const kind = input.kind ?? 'widget';
  const frame = useRef<HTMLIFrameElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [height, setHeight] = useState(160);
  const ready = useRef(false);
  const latestProps = useRef(props);
  latestProps.current = props;

  useEffect(() => {
    const post = (message: PageMessage) =>
      // The frame's origin is opaque: it cannot be named, so `*`, to that one window only.
      frame.current?.contentWindow?.postMessage(message, '*');
    const onMessage = async (event: MessageEvent) => {
      if (frame.current === null || event.source !== frame.current.contentWindow) return;
      const message = readFrameMessage(event.data);
      if (message === undefined) return;
      if (message.type === 'ready') {
        ready.current = true;
        setState('ready');
        post({ channel: BRIDGE_CHANNEL, type: 'init', props: latestProps.current });
      } else if (message.type === 'resize') {
        setHeight(Math.min(MAX_FRAME_HEIGHT, Math.max(MIN_FRAME_HEIGHT, Math.ceil(message.height))));
      } else {
        const decision = relayDecision(message, { slug, accountId, kind });
        if (!decision.allowed) {
          post(decision.result);
          return;
        }
        try {
          const response = await fetch(decision.url, {
            method: decision.method,
            headers: decision.headers,
            body: decision.body,
            credentials: 'same-origin',
            redirect: 'error',
          });
          post({
            channel: BRIDGE_CHANNEL,
            type: 'fetch-result',
            id: message.id,
            status: response.status,
            body: (await response.text()).slice(0, 1024 * 1024),
            contentType: response.headers.get('content-type') ?? 'application/octet-stream',
          });
        } catch (error) {
          post({
            channel: BRIDGE_CHANNEL,
            type: 'fetch-result',
            id: message.id,
            status: 502,
            contentType: 'application/json',
            body: JSON.stringify({
              ok: false,
              error: {
                code: 'network_error',
                message: `The host did not answer (${(error as Error).message}).`,
              },
            }),
          });
        }
      }
    };
    window.addEventListener('message', onMessage);
    const timer = setTimeout(() => {
      if (!ready.current) setState('failed');
    }, FRAME_READY_TIMEOUT_MS);
    return () => {
      window.removeEventListener('message', onMessage);
      clearTimeout(timer);
    };
  }, [slug, accountId, kind]);

  useEffect(() => {
    if (!ready.current) return;
    frame.current?.contentWindow?.postMessage(
      {
        channel: BRIDGE_CHANNEL,
        type: 'props',
        props: { collapsed: props.collapsed, isPinned: props.isPinned, health: props.health },
      } satisfies PageMessage,
      '*',
    );
  }, [props.collapsed, props.isPinned, props.health]);

  return (
    <div className="app-widget-frame">
      {state === 'failed' ? (
        <p role="alert" className="app-error">
          This widget did not load. Reload the page to try again.
        </p>
      ) : null}
      <iframe
        ref={frame}
        src={`/web/frames/${encodeURIComponent(versionId)}/${kind === 'widget' ? encodeURIComponent(widgetId) : `-/${kind}`}`}
        sandbox="allow-scripts allow-forms"
        title={title}
        referrerPolicy="no-referrer"
        style={{
          width: '100%',
          height: `${height}px`,
          border: 0,
          display: state === 'failed' ? 'none' : 'block',
        }}
        data-state={state}
      />
    </div>
  );
}
