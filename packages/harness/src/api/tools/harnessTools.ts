import { effectiveToolName, effectiveToolNameProblem } from '@platform/integration-schema';
import {
  describeDefinition,
  needsConfirmation,
  type ToolDescriptor,
  toolDescriptors,
} from '@platform/sdk/runtime';
import type { HarnessDefinition } from '../../types.js';

/** One tool as the harness serves it: the host's descriptor, and whether a call asks first (policy `ask`). */
export interface HarnessTool extends ToolDescriptor {
  readonly needsConfirmation: boolean;
}

/** A declared tool models would not be served, and why (no handler, a name model APIs refuse). */
export interface UnservedTool {
  readonly name: string;
  readonly toolName: string;
  readonly reason: string;
}

/** What an entry's tools are to a model, computed once per definition. */
export interface HarnessToolCatalog {
  readonly tools: readonly HarnessTool[];
  readonly unserved: readonly UnservedTool[];
}

const catalogs = new WeakMap<HarnessDefinition, HarnessToolCatalog>();

/**
 * The tools of a definition as the host would serve them (the sdk's `toolDescriptors` on the
 * definition's manifest, under the default policy `ask`), and the declared ones it would not.
 * @example harnessTools(entry.definition).tools.map((tool) => tool.name) // ['acme_notes_search']
 */
export function harnessTools(definition: HarnessDefinition): HarnessToolCatalog {
  const known = catalogs.get(definition);
  if (known !== undefined) return known;
  const manifest = describeDefinition(definition);
  const tools = toolDescriptors(definition.slug, manifest).map((tool) => ({
    ...tool,
    needsConfirmation: needsConfirmation(tool),
  }));
  const unserved = manifest.tools.flatMap((tool): UnservedTool[] => {
    const name = effectiveToolName(definition.slug, tool.name);
    if (tools.some((served) => served.toolName === tool.name)) return [];
    const reason =
      tool.hasHandler !== true
        ? 'it has no handler, so the host does not list it; add handler: async (ctx, input) => ...'
        : (effectiveToolNameProblem(definition.slug, tool.name) ?? 'the host does not serve it');
    return [{ name, toolName: tool.name, reason }];
  });
  const catalog = { tools, unserved };
  catalogs.set(definition, catalog);
  return catalog;
}
