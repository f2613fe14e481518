import { z } from 'zod';

/** One tool an MCP client will get in an account, as the consent page lists it. */
export const consentToolSchema = z.object({
  name: z.string(),
  integration: z.string(),
  description: z.string(),
  effect: z.enum(['read', 'write', 'destructive']),
  sensitivity: z.enum(['low', 'medium', 'high']),
  policy: z.enum(['ask', 'allow', 'block']),
});
export type ConsentTool = z.output<typeof consentToolSchema>;

/** `data` of `GET /api/platform/mcp/consent?<authorization query>`: what the consent page shows. */
export const mcpConsentResponseSchema = z.object({
  client: z.object({
    id: z.string(),
    name: z.string(),
    /** Where the browser goes back to (the redirect URI's host). */
    redirectHost: z.string(),
    metadataDocument: z.boolean(),
  }),
  resource: z.string(),
  accounts: z.array(
    z.object({
      id: z.string(),
      slug: z.string(),
      name: z.string(),
      role: z.string(),
      tools: z.array(consentToolSchema),
    }),
  ),
});
export type McpConsentResponse = z.output<typeof mcpConsentResponseSchema>;

/** Body of `POST /api/platform/mcp/consent`. */
export const mcpConsentRequestSchema = z.object({
  /** The authorization request's query string, as `/oauth/consent` got it. */
  request: z.string(),
  accountId: z.string().optional(),
  decision: z.enum(['allow', 'deny']),
});
export type McpConsentRequest = z.output<typeof mcpConsentRequestSchema>;

/** `data` of `POST /api/platform/mcp/consent`: where the browser goes next (the client). */
export const mcpConsentDecisionSchema = z.object({ redirectTo: z.string() });
export type McpConsentDecision = z.output<typeof mcpConsentDecisionSchema>;

/** One grant a user gave an MCP client, as `GET /api/platform/mcp/grants` lists it. */
export const mcpGrantSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  accountId: z.string(),
  accountSlug: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type McpGrant = z.output<typeof mcpGrantSchema>;

/** `data` of `GET /api/platform/mcp/grants`. */
export const mcpGrantsResponseSchema = z.object({ grants: z.array(mcpGrantSchema) });
export type McpGrantsResponse = z.output<typeof mcpGrantsResponseSchema>;

/** `data` of `DELETE /api/platform/mcp/grants/:id`. */
export const revokeMcpGrantResponseSchema = z.object({ id: z.string(), revoked: z.literal(true) });
export type RevokeMcpGrantResponse = z.output<typeof revokeMcpGrantResponseSchema>;
