import type { FetchFunction } from '@platform/sdk/hooks';
import { EgressDeniedError } from '@platform/sdk/integration';
import { checkEgressUrl, redactText, redactUrl } from '@platform/sdk/runtime';
import type { OAuthStatusResponse, OkEnvelope } from '@platform/wire';
import { harnessOAuthStatus } from '../config/harnessOAuthConnected.js';
import {
  answerFromFixtures,
  type CompiledFixture,
  type CompiledVariant,
  compileFixtures,
  entryEgress,
  refuseRequest,
} from '../fixtures/index.js';
import type { HarnessRegistryEntry, HarnessVariant } from '../types.js';
import { classifyRequest } from './_classifyRequest.js';
import { type ConfirmLiveActionOptions, confirmLiveAction } from './confirmLiveAction.js';
import { HARNESS_HEADERS, harnessRequestHeaders } from './harnessRequestHeaders.js';
import { effectiveToolbarState, type HarnessToolbarState } from './harnessToolbarState.js';

export interface HarnessFetchOptions {
  /** The active integration. */
  readonly entry: HarnessRegistryEntry;
  /** The toolbar state, or a function reading the current one (so one fetch follows the toolbar). */
  readonly toolbar: HarnessToolbarState | (() => HarnessToolbarState);
  /** The page's origin, what same-origin means; default `location.origin`. */
  readonly pageOrigin?: string;
  /** What pass-through requests go to; default `globalThis.fetch`, looked up at call time. */
  readonly fetch?: FetchFunction;
  /** The live-action prompt; default `window.confirm`. */
  readonly confirm?: ConfirmLiveActionOptions['confirm'];
  /** Where a live confirmation is remembered; default `sessionStorage`. */
  readonly storage?: ConfirmLiveActionOptions['storage'];
  /** Where refusal lines go; default `console.warn`. */
  readonly log?: (line: string) => void;
  /** Told once per request how it was answered (the shell's request log); never given a body. */
  readonly onRequest?: (record: HarnessRequestRecord) => void;
}

/** How the harness fetch answered one request. */
export type HarnessRequestAnswer =
  /** A fixture of the variant; `fixture` is its `request` (`<METHOD> <target>`). */
  | { readonly kind: 'fixture'; readonly fixture: string; readonly status: number }
  /** Fixtures mode's OAuth status from the entry's `oauth.connected`. */
  | { readonly kind: 'oauth-connected'; readonly connected: boolean }
  /** Passed to the harness server (the page's own files, or the integration's routes). */
  | { readonly kind: 'server'; readonly status?: number; readonly error?: string }
  /** Sent to the vendor (live mode, within egress). */
  | { readonly kind: 'network'; readonly status?: number; readonly error?: string }
  /** Not sent: `suggestion` is the fixture literal that would answer it (none for an egress refusal). */
  | { readonly kind: 'refused'; readonly message: string; readonly suggestion?: string };

/** A handler's `ctx.fetch` on the server, as the actions route lists it in `x-harness-hops`. */
export interface HarnessHop {
  readonly method: string;
  /** Redacted: no userinfo, query values as `?...`. */
  readonly url: string;
  readonly answer: Extract<HarnessRequestAnswer, { kind: 'fixture' | 'network' | 'refused' }>;
}

/** One request the harness fetch handled, as `onRequest` reports it. */
export interface HarnessRequestRecord {
  readonly method: string;
  /** Redacted: query values as `?...`, no userinfo. */
  readonly url: string;
  readonly variant: HarnessVariant;
  readonly mode: HarnessToolbarState['mode'];
  readonly answer: HarnessRequestAnswer;
  /** Set for a handler's request on the server (`ctx.fetch of <action>`); absent for the page's own. */
  readonly via?: string;
}

/**
 * The `fetch` of a harness page (pass it to `IntegrationFetchProvider`), routing every request by
 * the spec's "Harness same-origin traffic":
 * - same-origin `/api/...` is answered from the variant's same-origin fixtures in every mode, and
 *   refused (`NoRecordedResponseError`, one console line) when none matches, except the active
 *   integration's own routes, which reach the harness server in live mode; its `local-setup` and
 *   `actions/<name>` routes reach the server in both modes (live actions after the confirmation);
 * - another origin is answered from the variant's egress fixtures in fixtures mode, never the
 *   network; in live mode it is fetched when the entry's egress allows it, refused otherwise;
 * - every request to the harness server carries the toolbar headers (vendor requests do not).
 * The active variant's fixtures compile when the fetch is made, so a broken fixture (a path-only
 * one without exactly one egress origin) throws while the surface renders.
 * @example
 * const fetch = createHarnessFetch({ entry, toolbar: () => toolbarRef.current });
 * <IntegrationFetchProvider fetch={fetch}><Widget /></IntegrationFetchProvider>
 */
export function createHarnessFetch(options: HarnessFetchOptions): FetchFunction {
  const { entry } = options;
  const pageOrigin = resolvePageOrigin(options.pageOrigin);
  const toolbar = options.toolbar;
  const readToolbar = typeof toolbar === 'function' ? toolbar : () => toolbar;
  const egress = entryEgress(entry);
  const log = options.log ?? ((line: string) => console.warn(line));
  const send: FetchFunction = (input, init) => (options.fetch ?? globalThis.fetch)(input, init);

  const compiled = new Map<HarnessVariant, CompiledVariant>();
  const fixturesOf = (variant: HarnessVariant): CompiledVariant => {
    let variantFixtures = compiled.get(variant);
    if (variantFixtures === undefined) {
      variantFixtures = compileFixtures(entry, variant, pageOrigin);
      compiled.set(variant, variantFixtures);
    }
    return variantFixtures;
  };
  fixturesOf(readToolbar().variant);

  return async (input, init) => {
    const state = effectiveToolbarState(entry, readToolbar());
    const request = toRequest(input, init, pageOrigin);
    const report = (answer: HarnessRequestAnswer) =>
      options.onRequest?.({
        method: request.method,
        url: redactUrl(request.url),
        variant: state.variant,
        mode: state.mode,
        answer,
      });
    // An action's `ctx.fetch` hops, as the server lists them in `x-harness-hops`, after its own line.
    const reportHops = (response: Response) => {
      for (const hop of readHops(response.headers.get(HARNESS_HEADERS.hops))) {
        options.onRequest?.({
          method: hop.method,
          url: hop.url,
          variant: state.variant,
          mode: state.mode,
          answer: hop.answer,
          via: `ctx.fetch of ${new URL(request.url).pathname.split('/').pop() ?? 'the action'}`,
        });
      }
    };
    // Passed on, with the status (or the failure) reported once the answer is in.
    const passOn = async (kind: 'server' | 'network', sent: Request): Promise<Response> => {
      try {
        const response = await send(sent);
        report({ kind, status: response.status });
        if (kind === 'server') reportHops(response);
        return response;
      } catch (error) {
        report({ kind, error: redactText(error instanceof Error ? error.message : String(error)) });
        throw error;
      }
    };
    const url = new URL(request.url);
    const route = classifyRequest(url, pageOrigin, entry.slug);
    const live = state.mode === 'live';

    const toServer = () => {
      const headers = new Headers(request.headers);
      for (const [name, value] of Object.entries(harnessRequestHeaders(state))) headers.set(name, value);
      return passOn('server', new Request(request, { headers }));
    };
    const fromFixtures = (fixtures: readonly CompiledFixture[]) => {
      const answer = answerFromFixtures(fixtures, request);
      if (answer === null) return null;
      report({ kind: 'fixture', fixture: answer.fixture.request, status: answer.response.status });
      return answer.response;
    };
    const refuse = (origins: readonly string[]): never => {
      const sameOrigin = route.kind === 'own' || route.kind === 'api';
      const refusal = refuseRequest(request.method, request.url, state.variant, origins, entry.slug, {
        sameOrigin,
      });
      log(refusal.line);
      report({ kind: 'refused', message: refusal.error.message, suggestion: refusal.suggestion });
      throw refusal.error;
    };

    const oauthStatus = () => {
      if (!isOAuthStatus(entry, request.method, route.kind === 'own' ? route.rest : '')) return null;
      const status = harnessOAuthStatus(entry, state.variant, new Date());
      report({ kind: 'oauth-connected', connected: status.connected });
      return Response.json({ ok: true, data: status } satisfies OkEnvelope<OAuthStatusResponse>);
    };

    switch (route.kind) {
      case 'page':
      case 'own-local-setup':
        return toServer();
      case 'own-action':
        if (live) {
          try {
            confirmLiveAction(entry.slug, { ...gateOptions(options), mode: 'live', action: route.action });
          } catch (error) {
            report({ kind: 'refused', message: error instanceof Error ? error.message : String(error) });
            throw error;
          }
        }
        return toServer();
      case 'own':
        if (live) return toServer();
        return fromFixtures(fixturesOf(state.variant).sameOrigin) ?? oauthStatus() ?? refuse([pageOrigin]);
      case 'api':
        return fromFixtures(fixturesOf(state.variant).sameOrigin) ?? refuse([pageOrigin]);
      case 'vendor':
        if (!live) return fromFixtures(fixturesOf(state.variant).egress) ?? refuse(egress);
        try {
          checkLiveEgress(request, entry, log);
        } catch (error) {
          report({ kind: 'refused', message: error instanceof Error ? error.message : String(error) });
          throw error;
        }
        // As the page sent it: toolbar headers are for the harness server, and on a vendor request
        // they would tell the vendor about the harness and fail its CORS preflight.
        return passOn('network', request);
    }
  };
}

function resolvePageOrigin(pageOrigin: string | undefined): string {
  const origin = pageOrigin ?? globalThis.location?.origin;
  if (origin === undefined) {
    throw new Error(
      'createHarnessFetch() needs pageOrigin outside a browser page, e.g. "http://127.0.0.1:5173".',
    );
  }
  return new URL(origin).origin;
}

// One Request for every route: its URL resolved against the page (relative URLs are the norm for
// same-origin calls), its method normalised, its body untouched until a pass-through sends it.
function toRequest(
  input: string | URL | Request,
  init: RequestInit | undefined,
  pageOrigin: string,
): Request {
  try {
    if (input instanceof Request) return new Request(input, init);
    return new Request(new URL(String(input), pageOrigin), init);
  } catch (error) {
    // Fetch refuses URLs with credentials and quotes them whole in its message: pass the refusal
    // on with the URL redacted (no userinfo, no query), as every harness message is.
    throw new TypeError(redactText(error instanceof Error ? error.message : String(error)));
  }
}

function gateOptions(options: HarnessFetchOptions): Pick<ConfirmLiveActionOptions, 'confirm' | 'storage'> {
  return {
    ...(options.confirm === undefined ? {} : { confirm: options.confirm }),
    ...(options.storage === undefined ? {} : { storage: options.storage }),
  };
}

// Fixtures mode answers the OAuth status route from `oauth.connected` (default connected) when no
// fixture of the variant does: the spec has fixtures mode report it, and the page's own requests in
// fixtures mode never reach the server.
function isOAuthStatus(entry: HarnessRegistryEntry, method: string, rest: string): boolean {
  if (method !== 'GET' || rest.replace(/\/$/, '') !== 'oauth/status') return false;
  return entry.oauth !== undefined || entry.definition?.oauth !== undefined;
}

// The sdk's one egress rule (the check `ctx.fetch` and the server make too), with the harness's fix
// added and the refusal logged like every other.
function checkLiveEgress(request: Request, entry: HarnessRegistryEntry, log: (line: string) => void): void {
  try {
    checkEgressUrl(request.url, entryEgress(entry), { caller: 'Live API fetch', egressReason: 'egress' });
  } catch (error) {
    if (!(error instanceof EgressDeniedError)) throw error;
    const where =
      entry.definition === undefined ? ' (this entry has no definition: add it to live.egress)' : '';
    const message = `${error.message}${where}. The request was not sent; switch the toolbar to Fixtures to answer it from fixtures.`;
    log(`[harness] ${message}`);
    throw new EgressDeniedError(error.origin, message, error.reason);
  }
}

// The server's hop list, read defensively: a malformed header lists nothing rather than failing the call.
function readHops(header: string | null): HarnessHop[] {
  if (header === null) return [];
  try {
    const hops: unknown = JSON.parse(decodeURIComponent(header));
    if (!Array.isArray(hops)) return [];
    return hops.filter(
      (hop): hop is HarnessHop =>
        typeof hop?.method === 'string' &&
        typeof hop.url === 'string' &&
        typeof hop.answer?.kind === 'string',
    );
  } catch {
    return [];
  }
}
