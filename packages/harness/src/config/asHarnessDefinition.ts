import type { AnyIntegrationDefinition } from '@platform/sdk/integration';
import type { HarnessDefinition } from '../types.js';

/**
 * The same definition, typed for the registry: its storage, action and webhook types are erased,
 * so entries of different integrations fit one `harnessIntegrations` array.
 * @example { slug: 'acme-notes', definition: asHarnessDefinition(acmeNotes), ... }
 */
export function asHarnessDefinition(definition: AnyIntegrationDefinition): HarnessDefinition {
  return definition;
}
