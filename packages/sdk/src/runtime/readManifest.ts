import {
  checkDefinitionRules,
  checkUnique,
  type DefinitionProblem,
  definitionSchemas,
  IntegrationDefinitionError,
} from '@platform/integration-schema';
import { z } from 'zod/v4';
import type { DefinitionManifest } from './describeDefinition.js';
import { readPayloadShape } from './payloadFit.js';

// The manifest's fields, each taken from the definition's own field schema (one rule, one place).
const field = definitionSchemas().definitionShape.shape;
const webhook = field.webhooks.unwrap().element;
const schedule = field.schedules.unwrap().element;
const tool = field.tools.unwrap().element;
const widget = field.components.unwrap().shape.widgets.unwrap().element;
const oauth = field.oauth.unwrap().shape;
const storageKeys = z.array(z.string());
const jsonSchemas = z.record(z.string(), z.record(z.string(), z.unknown()));

const manifestShape = z.strictObject({
  slug: field.slug,
  egress: z.array(z.string()),
  actions: z.array(
    z.strictObject({ name: z.string(), description: field.actions.unwrap().valueType.shape.description }),
  ),
  webhooks: z.array(
    webhook
      .pick({ id: true, description: true, signature: true })
      .extend({ hasReply: z.boolean().optional(), payloadShape: z.unknown().optional() }),
  ),
  schedules: z.array(schedule.pick({ id: true, cron: true, description: true })),
  tools: z.array(
    tool.pick({ name: true, description: true }).extend({
      hasHandler: z.boolean().optional(),
      inputSchema: z.record(z.string(), z.unknown()).optional(),
      inputSchemaProblem: z.string().max(2000).optional(),
      outputSchema: z.record(z.string(), z.unknown()).optional(),
      outputSchemaProblem: z.string().max(2000).optional(),
    }),
  ),
  widgets: z.array(widget.omit({ component: true })),
  layouts: field.layouts,
  storage: z.strictObject({ account: storageKeys, user: storageKeys }),
  storageShapes: z.strictObject({ account: jsonSchemas, user: jsonSchemas }).optional(),
  oauth: z
    .strictObject({
      provider: oauth.provider.required({ pkce: true, tokenAuthMethod: true }),
      credentials: oauth.credentials,
    })
    .optional(),
  connection: field.connection,
  proposes: field.proposes,
  hasOnActivate: z.boolean(),
});

/**
 * Checks a manifest that came out of partner code (an isolate's `describe`) before the host
 * stores or reads it: the manifest's strict shape, then every rule of the definition it describes
 * (naming, cron, egress entries, OAuth URLs against egress, signature schemes, storage keys,
 * uniqueness, references). The definition was checked inside the isolate too, but partner code can
 * skip that check or answer with a manifest of its own. A payload shape that is not well formed is
 * dropped (ingress then checks those bodies in the isolate).
 * @throws IntegrationDefinitionError listing every problem, with the definition's paths
 * @example const manifest = readManifest(JSON.parse(answer)); // throws on a manifest the schema refuses
 */
export function readManifest(raw: unknown): DefinitionManifest {
  const slug =
    typeof (raw as { slug?: unknown } | null)?.slug === 'string' ? (raw as { slug: string }).slug : undefined;
  const shape = manifestShape.safeParse(raw);
  if (!shape.success) {
    throw new IntegrationDefinitionError(
      slug,
      shape.error.issues.map((issue) => ({
        path: issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.'),
        message: `${issue.message} (in the manifest the bundle's describe returned; build the bundle with this host's @platform/sdk)`,
      })),
    );
  }
  const manifest = shape.data;
  const problems: DefinitionProblem[] = [];
  // Record keys in a definition, list entries in a manifest: unique only if checked here.
  const indexed = (names: readonly string[]) => names.map((name, index) => [index, name] as const);
  checkUnique('action name', 'actions', indexed(manifest.actions.map((action) => action.name)), problems);
  checkUnique('storage key', 'storage.account', indexed(manifest.storage.account), problems);
  checkUnique('storage key', 'storage.user', indexed(manifest.storage.user), problems);
  problems.push(
    ...checkDefinitionRules({
      slug: manifest.slug,
      egress: manifest.egress,
      actions: Object.fromEntries(manifest.actions.map((action) => [action.name, action])),
      webhooks: manifest.webhooks,
      schedules: manifest.schedules,
      tools: manifest.tools,
      components: { widgets: manifest.widgets },
      ...(manifest.layouts === undefined ? {} : { layouts: manifest.layouts }),
      storage: {
        account: Object.fromEntries(manifest.storage.account.map((key) => [key, true])),
        user: Object.fromEntries(manifest.storage.user.map((key) => [key, true])),
      },
      ...(manifest.oauth === undefined ? {} : { oauth: manifest.oauth }),
      ...(manifest.connection === undefined ? {} : { connection: manifest.connection }),
      ...(manifest.proposes === undefined ? {} : { proposes: manifest.proposes }),
    }),
  );
  for (const scope of ['account', 'user'] as const) {
    for (const key of Object.keys(manifest.storageShapes?.[scope] ?? {})) {
      if (!manifest.storage[scope].includes(key)) {
        problems.push({
          path: `storageShapes.${scope}.${key}`,
          message: `a JSON Schema for "${key}", which storage.${scope} does not declare`,
        });
      }
    }
  }
  if (problems.length > 0) throw new IntegrationDefinitionError(manifest.slug, problems);
  return {
    ...manifest,
    webhooks: manifest.webhooks.map(({ payloadShape, ...rest }) => {
      const readable = readPayloadShape(payloadShape);
      return readable === undefined ? rest : { ...rest, payloadShape: readable };
    }),
  } as DefinitionManifest;
}
