import { z } from 'zod';
import { reviewSchema } from './versions.js';

// The marketplace under `/api/platform/accounts/:account/marketplace`: what an account can
// activate (the integrations whose live version a source serving it offers) and one listing's
// detail: docs, what it asks for, and what a newer live version widens.

/** One tile of `GET /api/platform/accounts/:account/marketplace`. */
export const marketplaceIntegrationSchema = z.object({
  slug: z.string(),
  /** The platform.json `name`, else the slug. */
  name: z.string(),
  description: z.string().nullable(),
  /** A name of `@platform/ui`'s free icon set, or null. */
  icon: z.string().nullable(),
  /** The source's name. */
  publisher: z.string(),
  /** The live version's number. */
  version: z.number().int(),
  activated: z.boolean(),
  /** Whether the caller may activate it (an owner or admin of the account). */
  canActivate: z.boolean(),
  /** The live version's id: its frames are `/web/frames/<versionId>/-/tile` and `/-/activation-form`. */
  versionId: z.string(),
  /** Whether the live version has a tile (`platform.json` `tile`), drawn in a frame on the tile. */
  hasTile: z.boolean(),
  /** Whether it has an activation form (`platform.json` `activationForm`), shown after Activate. */
  hasActivationForm: z.boolean(),
});
export type MarketplaceIntegration = z.output<typeof marketplaceIntegrationSchema>;

/** `data` of `GET /api/platform/accounts/:account/marketplace`. */
export const marketplaceResponseSchema = z.object({ integrations: z.array(marketplaceIntegrationSchema) });
export type MarketplaceResponse = z.output<typeof marketplaceResponseSchema>;

/** `data` of `GET /api/platform/accounts/:account/marketplace/:slug`: a tile and what it asks for. */
export const marketplaceListingSchema = marketplaceIntegrationSchema.extend({
  /** The platform.json `docs` file's Markdown as the partner wrote it: sanitise before rendering. */
  docs: z.string().nullable(),
  egress: z.array(z.object({ origin: z.string(), wildcard: z.boolean() })),
  oauth: z.object({ scopes: z.array(z.string()) }).nullable(),
  /** `proposes.scope`: the storage scope the integration proposes, or null. */
  storageScope: z.string().nullable(),
  widgets: z.array(z.object({ id: z.string(), name: z.string() })),
  tools: z.array(
    z.object({
      /** The name models call (`effectiveToolName`). */
      name: z.string(),
      description: z.string(),
      effect: z.enum(['read', 'write', 'destructive']),
      sensitivity: z.enum(['low', 'medium', 'high']),
    }),
  ),
  /** The action names. */
  actions: z.array(z.string()),
  activation: z.object({
    active: z.boolean(),
    activatedAt: z.string().exactOptional(),
    /** The version live when the account activated or last consented (unknown for older activations). */
    consentedVersion: z.number().int().exactOptional(),
  }),
  /** When activated and the live version is not the consented one: what it widens; else null. */
  widened: reviewSchema.nullable(),
});
export type MarketplaceListing = z.output<typeof marketplaceListingSchema>;
