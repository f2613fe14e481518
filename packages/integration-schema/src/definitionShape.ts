import { z } from 'zod/v4';
import { isStandardSchema, type StandardSchemaV1 } from './standardSchema.js';

// Fields only the host assigns. A definition carrying one is refused with a reminder.
export const HOST_ASSIGNED_FIELDS = [
  'productId',
  'kind',
  'trustTier',
  'credentialModel',
  'widgetConfigId',
  'workspaceId',
  'collapsed',
  'isPinned',
  'health',
  'integrationMetadata',
] as const;

const SCHEMA_HINT =
  'expected a schema (zod 3 >= 3.25.76, zod 4, or another Standard Schema with "~standard.validate")';

let made: ReturnType<typeof makeDefinitionSchemas> | undefined;

/**
 * The schemas of a definition: `definitionShape`, the strict shape of a definition (naming, cron,
 * storage-key and cross-field rules are checked beside it), and `signatureSchemeSchema`, one
 * webhook signature scheme. Made on the first call and kept, not at import: every version's
 * isolate loads this module with its bundle and, its definition checked at install, never uses
 * them (making them at import was 8 of the 25 ms its top level took in a new isolate).
 * @example const result = definitionSchemas().definitionShape.safeParse(candidate);
 */
export function definitionSchemas() {
  made ??= makeDefinitionSchemas();
  return made;
}

function makeDefinitionSchemas() {
  const schema = z.custom<StandardSchemaV1>(isStandardSchema, { error: SCHEMA_HINT });
  const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', {
    error: 'expected a function',
  });
  const component = z.custom<unknown>(
    (value) => typeof value === 'function' || (typeof value === 'object' && value !== null),
    { error: 'expected a React component' },
  );
  const nonEmpty = z.string().min(1, { error: 'must not be empty' });
  const rect = z.strictObject({
    x: z.int().nonnegative(),
    y: z.int().nonnegative(),
    w: z.int().nonnegative(),
    h: z.int().nonnegative(),
  });

  const widget = z.strictObject({
    id: z.string(),
    name: nonEmpty,
    component,
    isCollapsible: z.boolean().optional(),
    isPinnable: z.boolean().optional(),
    aiFooterEnabled: z.boolean().optional(),
    icon: nonEmpty.optional(),
  });

  const tool = z.strictObject({
    name: z.string(),
    description: nonEmpty,
    input: schema.optional(),
    output: schema.optional(),
    handler: fn.optional(),
  });

  const signatureSchemeSchema = z.strictObject({
    algorithm: z.enum(['sha256', 'sha1']).optional(),
    format: z.enum(['digest', 'keyed', 'versioned']).optional(),
    digestKey: nonEmpty.optional(),
    timestampKey: nonEmpty.optional(),
    timestampHeader: nonEmpty.optional(),
    timestampUnit: z.enum(['seconds', 'milliseconds']).optional(),
    secretEncoding: z.enum(['utf8', 'base64']).optional(),
    signedPayload: nonEmpty.optional(),
    toleranceSeconds: z.int().positive().optional(),
  });

  const webhook = z.strictObject({
    id: z.string(),
    description: z.string().optional(),
    payloadSchema: schema,
    signature: z
      .strictObject({ header: nonEmpty, secretName: nonEmpty, scheme: signatureSchemeSchema.optional() })
      .optional(),
    reply: fn.optional(),
    handler: fn,
  });

  const scheduleDecl = z.strictObject({
    id: z.string(),
    cron: z.string(),
    description: z.string().optional(),
    handler: fn,
  });

  const action = z.strictObject({
    description: z.string(),
    input: schema,
    output: schema.optional(),
    handler: fn,
  });

  const oauth = z.strictObject({
    provider: z.strictObject({
      authorizationUrl: z.string(),
      tokenUrl: z.string(),
      scopes: z.array(nonEmpty),
      pkce: z.boolean().optional(),
      tokenAuthMethod: z.enum(['client_secret_basic', 'client_secret_post']).optional(),
    }),
    credentials: z.strictObject({ clientIdSecretName: nonEmpty, clientSecretSecretName: nonEmpty }),
    onTokens: fn,
  });

  const connection = z.strictObject({
    kind: z.enum(['apiKey', 'basic']),
    fields: z
      .array(z.strictObject({ name: nonEmpty, label: nonEmpty, secret: z.boolean() }))
      .min(1, { error: 'declare at least one field' }),
    header: nonEmpty.optional(),
    verify: z.strictObject({ method: z.enum(['GET', 'HEAD', 'POST']), url: z.string() }),
    authorization: z.strictObject({ origins: z.array(z.string()).min(1) }).optional(),
  });

  const layout = z.record(z.string(), rect);

  const definitionShape = z.strictObject({
    slug: z.string(),
    components: z.strictObject({ widgets: z.array(widget).optional() }).optional(),
    layouts: z
      .strictObject({ lg: layout.optional(), md: layout.optional(), sm: layout.optional() })
      .optional(),
    tools: z.array(tool).optional(),
    webhooks: z.array(webhook).optional(),
    schedules: z.array(scheduleDecl).optional(),
    actions: z.record(z.string(), action).optional(),
    oauth: oauth.optional(),
    connection: connection.optional(),
    egress: z.array(z.string()).optional(),
    storage: z
      .strictObject({
        account: z.record(z.string(), schema).optional(),
        user: z.record(z.string(), schema).optional(),
      })
      .optional(),
    proposes: z
      .strictObject({
        tools: z
          .record(
            z.string(),
            z.strictObject({
              effect: z.enum(['read', 'write', 'destructive']),
              sensitivity: z.enum(['low', 'medium', 'high']),
            }),
          )
          .optional(),
        scope: z.enum(['user', 'team']).optional(),
      })
      .optional(),
    onActivate: fn.optional(),
  });
  return { definitionShape, signatureSchemeSchema };
}

/** The strict shape of a definition (see {@link definitionSchemas}). */
export type DefinitionShape = ReturnType<typeof definitionSchemas>['definitionShape'];
