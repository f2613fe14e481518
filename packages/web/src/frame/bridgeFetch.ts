import {
  BRIDGE_CHANNEL,
  type FetchResultMessage,
  type FrameMessage,
  MAX_BRIDGE_BODY,
  MAX_PENDING_FETCHES,
} from '../bridge/protocol.js';

type Send = (message: FrameMessage) => void;

/**
 * The `fetch` of a widget frame: every request becomes a bridge `fetch` message to the host page,
 * answered by its `fetch-result` (call `settle` with each). Only a same-origin path with a string
 * body crosses; the page decides whether it goes anywhere (`bridge/relay.ts`).
 */
export function createBridgeFetch(send: Send): {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  settle: (result: FetchResultMessage) => void;
} {
  const pending = new Map<number, (result: FetchResultMessage) => void>();
  let nextId = 1;
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const raw = request?.url ?? String(input);
    // A path of the host (the hooks' routes); the page refuses anything else anyway.
    const url = new URL(raw, 'http://frame.invalid');
    const path = raw.startsWith('/') && !raw.startsWith('//') ? `${url.pathname}${url.search}` : raw;
    const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers ?? request?.headers);
    const contentType = headers.get('content-type');
    const body = init.body ?? null;
    if (body !== null && typeof body !== 'string') {
      throw new TypeError('A widget request body crosses the bridge as a string (JSON.stringify it).');
    }
    if (body !== null && body.length > MAX_BRIDGE_BODY) {
      throw new TypeError(`A widget request body may be at most ${MAX_BRIDGE_BODY} characters.`);
    }
    if (pending.size >= MAX_PENDING_FETCHES) {
      throw new TypeError(`A widget may have at most ${MAX_PENDING_FETCHES} requests waiting at once.`);
    }
    const id = nextId++;
    const answer = new Promise<FetchResultMessage>((resolve, reject) => {
      pending.set(id, resolve);
      init.signal?.addEventListener('abort', () => {
        pending.delete(id);
        reject(init.signal?.reason ?? new DOMException('aborted', 'AbortError'));
      });
    });
    send({
      channel: BRIDGE_CHANNEL,
      type: 'fetch',
      id,
      method,
      path,
      headers: contentType === null ? {} : { 'content-type': contentType },
      body,
    });
    const result = await answer;
    return new Response(result.body, {
      status: result.status,
      headers: { 'content-type': result.contentType },
    });
  };
  const settle = (result: FetchResultMessage) => {
    const resolve = pending.get(result.id);
    if (resolve === undefined) return;
    pending.delete(result.id);
    resolve(result);
  };
  return { fetch, settle };
}
