import { lookup as dnsLookup } from 'node:dns/promises';
import { rootCertificates } from 'node:tls';
import { EgressDeniedError } from '@platform/sdk/integration';
import {
  type CapabilityFetchRequest,
  type CapabilityFetchResponse,
  checkEgressUrl,
  redactText,
  redactUrl,
} from '@platform/sdk/runtime';
import { Agent, type Dispatcher } from 'undici';
import { ipLiteral, refusedAddressClass } from './_addressPolicy.js';
import { type CheckedAddresses, pinnedLookup } from './_pinnedLookup.js';
import type { EgressFetch, ResolvedAddress } from './EgressFetch.js';

/** How `createEgressFetch` reaches the network. */
export interface EgressFetchOptions {
  /** Development switch: loopback addresses (and only those) may be reached. Off by default. */
  readonly allowLoopback?: boolean;
  /** Extra trusted CA certificates (PEM), e.g. a test authorization server's. */
  readonly ca?: string | readonly string[];
  /** Per request. Default 30 s. */
  readonly timeoutMs?: number;
  /** Largest response body read. Default 10 MiB. */
  readonly maxResponseBytes?: number;
  /** DNS resolution, replaceable in tests. Default: node:dns lookup with all addresses. */
  readonly lookup?: (hostname: string) => Promise<readonly ResolvedAddress[]>;
}

// Hop-by-hop headers belong to one connection, not to the request; `host` and `content-length`
// are derived from the URL and body, and undici refuses `expect`.
const DROPPED_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

async function systemLookup(hostname: string): Promise<readonly ResolvedAddress[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
}

/**
 * The server side's `fetch` capability (the host's, and the harness's in live mode): one hop, only
 * to `egress` origins and public addresses, over the very address it checked (no second DNS
 * lookup a rebinding answer could change). `close()` ends its connections.
 * @example const fetch = createEgressFetch(); await fetch(request, ['https://api.acme.com']); await fetch.close();
 */
export function createEgressFetch(
  options: EgressFetchOptions = {},
): EgressFetch & { close(): Promise<void> } {
  const allowLoopback = options.allowLoopback ?? false;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxBytes = options.maxResponseBytes ?? 10 * 1024 * 1024;
  const resolve = options.lookup ?? systemLookup;
  const extraCa = options.ca === undefined ? [] : [options.ca].flat();
  const checked: CheckedAddresses = new Map();
  const agent = new Agent({
    connect: {
      lookup: pinnedLookup(checked),
      timeout: timeoutMs,
      // Node's `ca` replaces the default roots; extra CAs are added to them, not swapped in.
      ...(extraCa.length > 0 ? { ca: [...rootCertificates, ...extraCa] } : {}),
    },
  });

  async function checkHost(url: URL, shown: string, signal: AbortSignal): Promise<void> {
    const literal = ipLiteral(url.hostname);
    let answers: readonly ResolvedAddress[];
    try {
      answers = literal
        ? [{ address: literal, family: literal.includes(':') ? 6 : 4 }]
        : await Promise.race([resolve(url.hostname), untilAborted(signal)]);
    } catch (error) {
      throw failed(shown, error, signal);
    }
    if (answers.length === 0)
      throw new TypeError(`the request to ${shown} failed: ${url.hostname} did not resolve`);
    for (const { address } of answers) {
      const refused = refusedAddressClass(address, allowLoopback);
      if (refused === undefined) continue;
      const subject = literal ? address : `${url.hostname} resolves to ${address}, which`;
      const hint =
        refused === 'loopback' ? ' (for local testing, create the fetch with allowLoopback on)' : '';
      throw new EgressDeniedError(
        url.origin,
        `fetch to ${shown} refused: ${subject} is not a public address (${refused}); integrations may only reach public addresses${hint}`,
        'private-address',
      );
    }
    // Every answer passed, so the connection may use any of them and no other.
    if (!literal) checked.set(url.hostname, answers);
  }

  async function send(request: CapabilityFetchRequest, url: URL, shown: string, signal: AbortSignal) {
    const headers = request.headers.filter(([name]) => !DROPPED_HEADERS.has(name.toLowerCase())).flat();
    let response: Dispatcher.ResponseData;
    try {
      response = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers,
        body: request.body === null ? null : Buffer.from(request.body, 'base64'),
        signal,
      });
    } catch (error) {
      throw failed(shown, error, signal);
    }
    let body: Buffer;
    try {
      body = await readCapped(response.body, maxBytes, response.headers['content-length']);
    } catch (error) {
      if (error instanceof RangeError) {
        throw new Error(
          `the response from ${shown} is larger than the ${maxBytes}-byte limit; request less data (a smaller page or range)`,
        );
      }
      throw failed(shown, error, signal);
    }
    const responseHeaders = Object.entries(response.headers).flatMap(([name, value]) =>
      DROPPED_HEADERS.has(name) || value === undefined ? [] : [value].flat().map((v) => [name, v] as const),
    );
    return {
      status: response.statusCode,
      statusText: response.statusText,
      headers: responseHeaders,
      body: body.toString('base64'),
    } satisfies CapabilityFetchResponse;
  }

  // A TypeError, as fetch rejects on a network failure: what retry logic (the sdk's vendor client
  // among it) takes for "the request may not have arrived; trying again may work".
  function failed(shown: string, error: unknown, signal: AbortSignal): TypeError {
    if (signal.aborted)
      return new TypeError(`the request to ${shown} timed out after ${timeoutMs} ms`, { cause: error });
    // The network stack's words; redacted anyway, since the guest may log them and the server logs some.
    const reason = redactText(error instanceof Error ? error.message : String(error));
    return new TypeError(`the request to ${shown} failed: ${reason}`, { cause: error });
  }

  const egressFetch = async (request: CapabilityFetchRequest, egress: readonly string[]) => {
    // Checked again as the guest checks it: the guest is not trusted to have done so.
    const url = checkEgressUrl(request.url, egress, { caller: 'fetch', egressReason: 'egress' });
    const shown = redactUrl(url);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      await checkHost(url, shown, controller.signal);
      return await send(request, url, shown, controller.signal);
    } finally {
      clearTimeout(timer);
    }
  };
  return Object.assign(egressFetch, { close: () => agent.close() });
}

/** The whole body, or a RangeError (body destroyed) as soon as it is known to exceed `max`. */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  max: number,
  declared: string | string[] | undefined,
) {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    if (typeof declared === 'string' && Number(declared) > max)
      throw new RangeError('declared length over limit');
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > max) throw new RangeError('body over limit');
      chunks.push(chunk);
    }
  } finally {
    // Stop reading: the rest of an oversized body (and its connection) is not worth keeping. The
    // listener takes the abort error undici emits for a body destroyed before it was read.
    if (!body.readableEnded) body.on('error', () => {}).destroy();
  }
  return Buffer.concat(chunks, total);
}

function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) =>
    signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
  );
}
