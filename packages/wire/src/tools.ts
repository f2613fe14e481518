import { z } from 'zod';

/** An account's policy for one tool served to models. */
export const toolPolicySchema = z.enum(['ask', 'allow', 'block']);
export type ToolPolicyValue = z.output<typeof toolPolicySchema>;

/** One tool an account's models may call, as `GET /api/platform/accounts/:account/tools` lists it. */
export const accountToolSchema = z.object({
  name: z.string(),
  integration: z.string(),
  version: z.number().int(),
  description: z.string(),
  effect: z.enum(['read', 'write', 'destructive']),
  sensitivity: z.enum(['low', 'medium', 'high']),
  policy: toolPolicySchema,
  /** Whether a call waits for the person's confirmation under the policy. */
  asks: z.boolean(),
});
export type AccountTool = z.output<typeof accountToolSchema>;

/** `data` of `GET /api/platform/accounts/:account/tools`. */
export const accountToolsResponseSchema = z.object({ tools: z.array(accountToolSchema) });
export type AccountToolsResponse = z.output<typeof accountToolsResponseSchema>;

/** Body of `PUT /api/platform/accounts/:account/tools/:tool/policy`. */
export const toolPolicyRequestSchema = z.object({ policy: toolPolicySchema });
export type ToolPolicyRequest = z.output<typeof toolPolicyRequestSchema>;
