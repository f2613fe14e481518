// The widget frame bridge: what a sandboxed widget frame and the host page say to each other over
// postMessage. Both sides validate every message they receive with the readers below and ignore
// anything else (another channel, a wrong shape, a field too large). No library: this module runs
// in the frame and in the page.

/** Every bridge message carries this tag; a message without it is not ours and is ignored. */
export const BRIDGE_CHANNEL = 'platform-widget-bridge/1';

/**
 * What a frame renders: one of the version's widgets, its marketplace tile, or its activation form
 * (`/web/frames/<version>/<widget>`, `/-/tile`, `/-/activation-form`). Only an activation form may
 * write its activation's data (`relayDecision`).
 */
export type FrameKind = 'widget' | 'tile' | 'activation-form';

/** The most a request or response body may carry across the bridge (1 MiB of characters). */
export const MAX_BRIDGE_BODY = 1024 * 1024;
/** The most a path (with its query) may be. */
export const MAX_BRIDGE_PATH = 4096;
/** The most fetches one frame may have waiting for an answer at once. */
export const MAX_PENDING_FETCHES = 32;
/** The tallest a frame may ask to be, in CSS pixels. */
export const MAX_FRAME_HEIGHT = 4000;

/** What the host resolves for a widget placement (the host-assigned props of the spec). */
export interface WidgetFrameProps {
  readonly accountId: string;
  readonly workspaceId: string;
  readonly widgetConfigId: string;
  readonly collapsed: boolean;
  readonly isPinned: boolean;
  readonly health: WidgetFrameHealth | null;
  readonly integrationMetadata: {
    readonly slug: string;
    readonly name: string;
    readonly version: string;
    readonly publisher: string;
  };
}

export interface WidgetFrameHealth {
  readonly status: 'healthy' | 'degraded' | 'failing';
  readonly message?: string;
}

/** Frame to page. */
export type FrameMessage =
  | { readonly channel: typeof BRIDGE_CHANNEL; readonly type: 'ready' }
  | {
      readonly channel: typeof BRIDGE_CHANNEL;
      readonly type: 'fetch';
      readonly id: number;
      readonly method: string;
      readonly path: string;
      readonly headers: { readonly 'content-type'?: string };
      readonly body: string | null;
    }
  | { readonly channel: typeof BRIDGE_CHANNEL; readonly type: 'resize'; readonly height: number };

/** Page to frame. */
export type PageMessage =
  | { readonly channel: typeof BRIDGE_CHANNEL; readonly type: 'init'; readonly props: WidgetFrameProps }
  | {
      readonly channel: typeof BRIDGE_CHANNEL;
      readonly type: 'fetch-result';
      readonly id: number;
      readonly status: number;
      readonly body: string;
      readonly contentType: string;
    }
  | {
      readonly channel: typeof BRIDGE_CHANNEL;
      readonly type: 'props';
      readonly props: Partial<Pick<WidgetFrameProps, 'collapsed' | 'isPinned' | 'health'>>;
    };

export type FetchMessage = Extract<FrameMessage, { type: 'fetch' }>;
export type FetchResultMessage = Extract<PageMessage, { type: 'fetch-result' }>;

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const HEALTH = new Set(['healthy', 'degraded', 'failing']);

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const hasOnly = (value: Json, keys: readonly string[]) =>
  Object.keys(value).every((key) => keys.includes(key));
const shortString = (value: unknown, max = 256): value is string =>
  typeof value === 'string' && value.length <= max;
const bridged = (data: unknown): data is Json => isRecord(data) && data.channel === BRIDGE_CHANNEL;

/** A frame's message, or undefined for anything that is not exactly one (ignored by the page). */
export function readFrameMessage(data: unknown): FrameMessage | undefined {
  if (!bridged(data)) return undefined;
  switch (data.type) {
    case 'ready':
      return hasOnly(data, ['channel', 'type']) ? { channel: BRIDGE_CHANNEL, type: 'ready' } : undefined;
    case 'resize': {
      const { height } = data;
      if (!hasOnly(data, ['channel', 'type', 'height'])) return undefined;
      if (typeof height !== 'number' || !Number.isFinite(height) || height < 0) return undefined;
      return { channel: BRIDGE_CHANNEL, type: 'resize', height };
    }
    case 'fetch': {
      const { id, method, path, headers, body } = data;
      if (!hasOnly(data, ['channel', 'type', 'id', 'method', 'path', 'headers', 'body'])) return undefined;
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return undefined;
      if (typeof method !== 'string' || !METHODS.has(method)) return undefined;
      if (!shortString(path, MAX_BRIDGE_PATH) || path === '') return undefined;
      if (!isRecord(headers) || !hasOnly(headers, ['content-type'])) return undefined;
      const contentType = headers['content-type'];
      if (contentType !== undefined && !shortString(contentType)) return undefined;
      if (body !== null && !shortString(body, MAX_BRIDGE_BODY)) return undefined;
      return {
        channel: BRIDGE_CHANNEL,
        type: 'fetch',
        id,
        method,
        path,
        headers: contentType === undefined ? {} : { 'content-type': contentType },
        body,
      };
    }
    default:
      return undefined;
  }
}

/** The page's message, or undefined for anything that is not exactly one (ignored by the frame). */
export function readPageMessage(data: unknown): PageMessage | undefined {
  if (!bridged(data)) return undefined;
  switch (data.type) {
    case 'init': {
      const props = readProps(data.props);
      if (!hasOnly(data, ['channel', 'type', 'props']) || props === undefined) return undefined;
      return { channel: BRIDGE_CHANNEL, type: 'init', props };
    }
    case 'props': {
      const { props } = data;
      if (!hasOnly(data, ['channel', 'type', 'props']) || !isRecord(props)) return undefined;
      if (!hasOnly(props, ['collapsed', 'isPinned', 'health'])) return undefined;
      const update: { collapsed?: boolean; isPinned?: boolean; health?: WidgetFrameHealth | null } = {};
      if (props.collapsed !== undefined) {
        if (typeof props.collapsed !== 'boolean') return undefined;
        update.collapsed = props.collapsed;
      }
      if (props.isPinned !== undefined) {
        if (typeof props.isPinned !== 'boolean') return undefined;
        update.isPinned = props.isPinned;
      }
      if (props.health !== undefined) {
        const health = readHealth(props.health);
        if (health === undefined) return undefined;
        update.health = health;
      }
      return { channel: BRIDGE_CHANNEL, type: 'props', props: update };
    }
    case 'fetch-result': {
      const { id, status, body, contentType } = data;
      if (!hasOnly(data, ['channel', 'type', 'id', 'status', 'body', 'contentType'])) return undefined;
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return undefined;
      if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599)
        return undefined;
      if (!shortString(body, MAX_BRIDGE_BODY) || !shortString(contentType)) return undefined;
      return { channel: BRIDGE_CHANNEL, type: 'fetch-result', id, status, body, contentType };
    }
    default:
      return undefined;
  }
}

function readHealth(value: unknown): WidgetFrameHealth | null | undefined {
  if (value === null) return null;
  if (!isRecord(value) || !hasOnly(value, ['status', 'message'])) return undefined;
  if (typeof value.status !== 'string' || !HEALTH.has(value.status)) return undefined;
  const status = value.status as WidgetFrameHealth['status'];
  if (value.message === undefined) return { status };
  return shortString(value.message, 2000) ? { status, message: value.message } : undefined;
}

function readProps(value: unknown): WidgetFrameProps | undefined {
  if (!isRecord(value)) return undefined;
  const keys = [
    'accountId',
    'workspaceId',
    'widgetConfigId',
    'collapsed',
    'isPinned',
    'health',
    'integrationMetadata',
  ];
  if (!hasOnly(value, keys)) return undefined;
  const { accountId, workspaceId, widgetConfigId, collapsed, isPinned, integrationMetadata: meta } = value;
  if (!shortString(accountId) || !shortString(workspaceId) || !shortString(widgetConfigId)) return undefined;
  if (typeof collapsed !== 'boolean' || typeof isPinned !== 'boolean') return undefined;
  const health = readHealth(value.health);
  if (health === undefined || !isRecord(meta) || !hasOnly(meta, ['slug', 'name', 'version', 'publisher'])) {
    return undefined;
  }
  const { slug, name, version, publisher } = meta;
  if (!shortString(slug) || !shortString(name) || !shortString(version) || !shortString(publisher)) {
    return undefined;
  }
  return {
    accountId,
    workspaceId,
    widgetConfigId,
    collapsed,
    isPinned,
    health,
    integrationMetadata: { slug, name, version, publisher },
  };
}
