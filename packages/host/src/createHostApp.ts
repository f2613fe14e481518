import { redactUrl } from '@platform/sdk/runtime';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import type { HostServices } from './HostServices.js';
import { mcpRoutes } from './mcp/mcpRoutes.js';
import { toolPolicyRoutes } from './mcp/toolPolicyRoutes.js';
import { mcpAuthRoutes } from './mcpAuth/mcpAuthRoutes.js';
import { registryRoutes } from './registry/registryRoutes.js';
import { errorResponse, RouteError } from './routes/_errors.js';
import { actionRoutes } from './routes/actions.js';
import { activationRoutes } from './routes/activation.js';
import { connectionRoutes } from './routes/connection.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { deliveryRoutes } from './routes/deliveries.js';
import { devicePage } from './routes/devicePage.js';
import { listingIconRoutes } from './routes/listingIcons.js';
import { marketplaceRoutes } from './routes/marketplace.js';
import { memberRoutes } from './routes/members.js';
import { oauthRoutes } from './routes/oauth.js';
import { platformRoutes } from './routes/platform.js';
import { storageRoutes } from './routes/storage.js';
import { versionRoutes } from './routes/versions.js';
import { webAppRoutes } from './routes/webApp.js';
import { webhookRoutes } from './routes/webhooks.js';
import { widgetFrameRoutes } from './routes/widgetFrames.js';

/**
 * The host's HTTP surface as one `(Request) => Promise<Response>` app: tests call `app.request()`,
 * the server adapts Node's listener to it.
 * @example const app = createHostApp(services); const response = await app.request('/healthz');
 */
export function createHostApp(services: HostServices): Hono {
  const app = new Hono();
  app.use(requestId());
  app.use(async (c, next) => {
    // A host logging above `info` builds no line (nor reads the clock for it).
    if (!services.logger.isLevelEnabled('info')) return next();
    const started = performance.now();
    await next();
    services.logger.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        // Query strings can carry codes and tokens: logged as `?...`.
        path: redactUrl(c.req.url).replace(/^[a-z]+:\/\/[^/]+/, ''),
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  });

  app.get('/healthz', (c) =>
    c.json({
      ok: true,
      data: { status: 'ok', runtime: services.runtime.isolated ? 'isolated' : 'in-process' },
    }),
  );
  // The CLI's device sign-in is approved here, by a person signed in to the host.
  app.get('/device', devicePage);
  app.route('/api/platform', platformRoutes(services));
  app.route('/api/platform', versionRoutes(services));
  app.route('/api/integrations', actionRoutes(services));
  app.route('/api/integrations', storageRoutes(services));
  app.route('/api/integrations', activationRoutes(services));
  app.route('/api/integrations', oauthRoutes(services));
  app.route('/api/integrations', connectionRoutes(services));
  app.route('/api/integrations', webhookRoutes(services));
  app.route('/api/integrations', deliveryRoutes(services));
  app.route('/api/platform', toolPolicyRoutes(services));
  app.route('/api/platform', marketplaceRoutes(services));
  app.route('/api/platform', dashboardRoutes(services));
  app.route('/api/platform', memberRoutes(services));
  app.route('/', mcpRoutes(services));
  app.route('/', mcpAuthRoutes(services));
  // The end user's pages (sign-in, dashboard, marketplace, settings) and their assets.
  app.route('/', webAppRoutes());
  app.route('/', listingIconRoutes());
  // Partner widgets, each in a sandboxed frame with its own CSP (opaque origin), and their bundles.
  app.route('/', widgetFrameRoutes(services));
  if (services.registry)
    app.route('/', registryRoutes({ folder: services.registry, publicOrigin: () => services.publicOrigin }));

  app.notFound((c) =>
    errorResponse(c, 404, 'invalid_request', `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`),
  );
  app.onError((error, c) => {
    if (error instanceof RouteError)
      return errorResponse(c, error.status, error.code, error.message, error.extra);
    services.logger.error({ err: error, requestId: c.get('requestId') }, 'unhandled error');
    return errorResponse(
      c,
      500,
      'internal_error',
      `Something went wrong on the host; quote request id ${c.get('requestId')} when reporting it.`,
    );
  });
  return app;
}
