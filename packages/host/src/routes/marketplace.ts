import { parseEgressPattern } from '@platform/integration-schema';
import type { MarketplaceIntegration, MarketplaceListing, MarketplaceResponse } from '@platform/wire';
import { Hono } from 'hono';
import { reviewManifest } from '../gate/review.js';
import type { HostServices } from '../HostServices.js';
import { servedTools } from '../mcp/toolCatalog.js';
import { type MarketplaceEntry, marketplaceEntries, marketplaceEntry } from '../store/marketplace.js';
import type { MembershipRole } from '../store/users.js';
import { ACCOUNT_MANAGERS, memberAccount } from './_account.js';
import { requireCliUser } from './_auth.js';
import { RouteError } from './_errors.js';

/**
 * The marketplace of an account, for the web app's `/marketplace` pages (any member may read; a
 * session cookie or a token with `read`):
 * - `GET /accounts/:account/marketplace` -> `{ integrations }`: every integration whose live
 *   version a source serving the account offers, with its listing and whether it is activated.
 * - `GET /accounts/:account/marketplace/:slug` -> one listing: its docs' Markdown (unsanitised:
 *   the page sanitises), what it asks for, the activation, and what the live version widens
 *   against the one the account consented to (the gate's `reviewManifest`).
 */
export function marketplaceRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.get('/accounts/:account/marketplace', async (c) => {
    const user = await requireCliUser(services, c, 'read');
    const { account, role } = await memberAccount(services, user, c.req.param('account'));
    const entries = await marketplaceEntries(services.db, account.id);
    const data = { integrations: entries.map((entry) => tile(entry, role)) } satisfies MarketplaceResponse;
    return c.json({ ok: true, data });
  });

  app.get('/accounts/:account/marketplace/:slug', async (c) => {
    const user = await requireCliUser(services, c, 'read');
    const { account, role } = await memberAccount(services, user, c.req.param('account'));
    const slug = c.req.param('slug');
    const entry = await marketplaceEntry(services.db, account.id, slug);
    if (entry === undefined) {
      throw new RouteError(
        404,
        'integration_not_found',
        `No integration "${slug}" in the marketplace of account "${account.slug}".`,
        { hint: `GET /api/platform/accounts/${account.slug}/marketplace lists the integrations it offers.` },
      );
    }
    return c.json({ ok: true, data: listing(entry, role) });
  });
  return app;
}

function tile(entry: MarketplaceEntry, role: MembershipRole): MarketplaceIntegration {
  return {
    slug: entry.slug,
    name: entry.listing.name ?? entry.slug,
    description: entry.listing.description ?? null,
    icon: entry.listing.icon ?? null,
    publisher: entry.publisher,
    version: entry.live.number,
    activated: entry.activation !== undefined,
    canActivate: ACCOUNT_MANAGERS.includes(role),
    versionId: entry.live.id,
    hasTile: entry.listing.tile === true,
    hasActivationForm: entry.listing.activationForm === true,
  };
}

function listing(entry: MarketplaceEntry, role: MembershipRole): MarketplaceListing {
  const { manifest } = entry.live;
  const { activation } = entry;
  const consented = activation?.consented;
  return {
    ...tile(entry, role),
    docs: entry.listing.docs ?? null,
    egress: manifest.egress.map((origin) => {
      const parsed = parseEgressPattern(origin);
      return { origin, wildcard: parsed.ok && parsed.pattern.kind === 'wildcard' };
    }),
    oauth: manifest.oauth === undefined ? null : { scopes: [...manifest.oauth.provider.scopes] },
    storageScope: manifest.proposes?.scope ?? null,
    widgets: manifest.widgets.map((widget) => ({ id: widget.id, name: widget.name })),
    tools: servedTools(entry.slug, manifest).map((tool) => ({
      name: tool.name,
      description: tool.description,
      effect: tool.effect,
      sensitivity: tool.sensitivity,
    })),
    actions: manifest.actions.map((action) => action.name),
    activation:
      activation === undefined
        ? { active: false }
        : {
            active: true,
            activatedAt: activation.activatedAt.toISOString(),
            ...(consented === undefined ? {} : { consentedVersion: consented.number }),
          },
    widened:
      consented === undefined || consented.id === entry.live.id
        ? null
        : reviewManifest(manifest, { number: consented.number, manifest: consented.manifest }),
  };
}
