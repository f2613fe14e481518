import { parseDefinition } from '@platform/integration-schema';
import { definitionChecked } from './definitionChecked.js';
import type {
  ActionConstraint,
  IntegrationDefinition,
  NoKeys,
  StorageDeclaration,
  ToolConstraint,
  WebhookConstraint,
} from './types.js';

/**
 * Declares an integration: checks it against the strict schema (throwing an
 * `IntegrationDefinitionError` listing every problem) and returns it with its handlers typed from
 * its own schemas: `ctx.storage` from `storage`, action input and output, webhook payloads. In an
 * isolate the host made for an installed version, whose definition it checked at install, the
 * check is not made again (`DEFINITION_CHECKED_GLOBAL`).
 * @example
 * export default defineIntegration({
 *   slug: 'acme-notes',
 *   storage: { account: { settings: z.object({ workspace: z.string() }) } },
 *   actions: { 'list-notes': { description: 'List notes', input: z.object({}), handler: async (ctx) => [] } },
 * });
 */
export function defineIntegration<
  const S extends StorageDeclaration = NoKeys,
  const A extends Record<string, ActionConstraint> = NoKeys,
  const W extends readonly WebhookConstraint[] = [],
  const T extends readonly ToolConstraint[] = [],
>(definition: IntegrationDefinition<S, A, W, T>): IntegrationDefinition<S, A, W, T> {
  if (definitionChecked()) return definition;
  const result = parseDefinition(definition);
  if (!result.ok) throw result.error;
  return definition;
}
