import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { redactText } from '@platform/sdk/runtime';
import { createEgressFetch } from '@platform/sdk/server';
import { Hono } from 'hono';
import { HARNESS_HEADERS } from '../hooks/harnessRequestHeaders.js';
import { effectiveToolbarState } from '../hooks/harnessToolbarState.js';
import type { HarnessRegistry } from '../types.js';
import { errorResponse } from './_errors.js';
import type { HarnessApi, HarnessEnv, LiveFetch } from './_harnessApi.js';
import { EXPOSE_VARIABLE, loopbackOnly, sameOriginStateChanges } from './_requestGuards.js';
import { readToolbar } from './_toolbar.js';
import { createFixtureStates } from './fixtureStates.js';
import { liveStoreFor } from './liveStore.js';
import { localSecretsFile } from './localSecrets.js';
import { mcpRoutes } from './mcp/mcpRoutes.js';
import { createRecorder } from './recorder/createRecorder.js';
import { actionRoutes } from './routes/actions.js';
import { connectionRoutes } from './routes/connection.js';
import { localSetupRoutes } from './routes/localSetup.js';
import { oauthRoutes } from './routes/oauth.js';
import { scheduleTriggerRoutes } from './routes/scheduleTrigger.js';
import { storageRoutes } from './routes/storage.js';
import { toolRoutes } from './routes/tools.js';
import { webhookTriggerRoutes } from './routes/webhookTrigger.js';

export interface HarnessApiOptions {
  /** The partner project; `.platform/` and `harness-fixtures/` live here. Default `process.cwd()`. */
  readonly projectDir?: string;
  /** Read for `PLATFORM_HARNESS_EXPOSE` and `PLATFORM_HARNESS_ALLOW_LOOPBACK`. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Live mode's network: one hop, egress allowlist, private addresses refused. Default: the sdk's
   * `createEgressFetch()` (the host's own), created on the first live request.
   */
  readonly liveFetch?: LiveFetch;
  /** One line per call and per refusal, URLs redacted, never a secret value. Default: stderr. */
  readonly log?: (line: string) => void;
  /** Signing time of triggered webhooks and default time of triggered schedules. Default `new Date()`. */
  readonly now?: () => Date;
}

/** Every handler takes a Web Request and answers a Web Response (a Next-style route's `GET`/`POST`, or any server's `fetch`). */
export interface HarnessApiHandlers {
  readonly GET: (request: Request) => Promise<Response>;
  readonly POST: (request: Request) => Promise<Response>;
  readonly fetch: (request: Request) => Promise<Response>;
}

const ROUTES = [
  'POST actions/<name>',
  'GET storage?keys=<k1,k2>[&scope=account|user]',
  'GET|POST local-setup',
  'POST triggers/webhooks/<id>',
  'POST triggers/schedules/<id>',
  'GET tools',
  'POST tools/<effective name>',
  'GET oauth/connect?returnPath=<path>[&accountId=<id>]',
  'GET oauth/callback',
  'GET oauth/status',
  'GET|PUT connection',
];

/**
 * The harness's server side: every route under `/api/integrations/<slug>/...` for the registry's
 * entries, the toolbar state read from each request's `x-harness-variant` / `x-harness-mode`
 * headers (no per-tab state), loopback hosts only unless `PLATFORM_HARNESS_EXPOSE=1`.
 * @example
 * const { GET, POST } = createHarnessApiHandlers(harnessConfig, { projectDir });
 * const response = await POST(new Request('http://localhost:5173/api/integrations/acme-notes/actions/add-note', init));
 */
export function createHarnessApiHandlers(
  registry: HarnessRegistry,
  options: HarnessApiOptions = {},
): HarnessApiHandlers {
  const projectDir = resolve(options.projectDir ?? process.cwd());
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const env = options.env ?? process.env;
  const allowLoopback = options.liveFetch === undefined && env[LOOPBACK_VARIABLE] === '1';
  if (allowLoopback) {
    log(
      `[harness] ${LOOPBACK_VARIABLE}=1: live mode and the OAuth loop may reach loopback addresses (a local vendor or provider); other private addresses stay refused.`,
    );
  }
  const api: HarnessApi = {
    entries: new Map(registry.map((entry) => [entry.slug, entry])),
    projectDir,
    exposed: env[EXPOSE_VARIABLE] === '1',
    liveFetch: options.liveFetch ?? defaultLiveFetch(allowLoopback),
    log,
    now: options.now ?? (() => new Date()),
    fixtureStates: createFixtureStates(log),
    liveStore: liveStoreFor(projectDir),
    localSecrets: localSecretsFile(projectDir),
    recorder: createRecorder(projectDir, log),
    generatedSigningSecret: randomBytes(32).toString('hex'),
  };

  const app = new Hono<HarnessEnv>();
  app.use('*', async (c, next) => {
    const started = Date.now();
    await next();
    const url = new URL(c.req.url);
    const call = c.get('call');
    const toolbar =
      call === undefined ? '' : ` (${call.mode}, ${call.variant}${call.record ? ', recording' : ''})`;
    log(
      `[harness] ${c.req.method} ${url.pathname}${url.search === '' ? '' : '?...'}${toolbar} -> ${c.res.status} in ${Date.now() - started} ms`,
    );
  });
  app.use('*', loopbackOnly(api));
  app.use('*', sameOriginStateChanges(api));
  app.route('/', mcpRoutes(api));
  app.use('/api/integrations/:slug/*', async (c, next) => {
    const slug = c.req.param('slug');
    const entry = api.entries.get(slug);
    if (entry === undefined) {
      const declared = [...api.entries.keys()];
      return errorResponse(
        c,
        404,
        'integration_not_found',
        `No integration "${slug}" in harness.config.ts; declared: ${declared.join(', ') || 'none'}.`,
        { slugs: declared },
      );
    }
    const toolbar = readToolbar(c.req.raw.headers);
    if (!toolbar.ok) return errorResponse(c, 400, 'invalid_request', toolbar.message);
    // Without a `live` block an entry always runs on fixtures, whatever the toolbar says.
    const state = effectiveToolbarState(entry, toolbar.state);
    c.set('call', { entry, ...state });
    c.header(HARNESS_HEADERS.mode, state.mode);
    return next();
  });
  // One sub-app per concern.
  for (const routes of [
    actionRoutes,
    oauthRoutes,
    connectionRoutes,
    storageRoutes,
    localSetupRoutes,
    webhookTriggerRoutes,
    scheduleTriggerRoutes,
    toolRoutes,
  ]) {
    app.route('/api/integrations/:slug', routes(api));
  }
  app.notFound((c) =>
    errorResponse(
      c,
      404,
      'not_found',
      `No harness route ${c.req.method} ${new URL(c.req.url).pathname}; under /api/integrations/<slug>/ the routes are: ${ROUTES.join('; ')}.`,
    ),
  );
  app.onError((error, c) => {
    const message = redactText(error instanceof Error ? error.message : String(error));
    log(`[harness] ${c.req.method} ${new URL(c.req.url).pathname} failed: ${message}`);
    return errorResponse(c, 500, 'internal_error', message);
  });

  const handle = async (request: Request) => app.fetch(request);
  return { GET: handle, POST: handle, fetch: handle };
}

/**
 * Lets live mode reach loopback addresses (a vendor or OAuth provider running on this machine);
 * trust its certificate with Node's `NODE_EXTRA_CA_CERTS`.
 */
export const LOOPBACK_VARIABLE = 'PLATFORM_HARNESS_ALLOW_LOOPBACK';

// Created on first use: a harness that never goes live opens no connection pool.
function defaultLiveFetch(allowLoopback: boolean): LiveFetch {
  let fetch: LiveFetch | undefined;
  return (request, egress) => {
    fetch ??= createEgressFetch({ allowLoopback });
    return fetch(request, egress);
  };
}
