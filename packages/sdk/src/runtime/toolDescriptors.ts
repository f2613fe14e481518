import { effectiveToolName, effectiveToolNameProblem } from '@platform/integration-schema';
import type { DefinitionManifest } from './describeDefinition.js';

export type ToolEffect = 'read' | 'write' | 'destructive';
export type ToolSensitivity = 'low' | 'medium' | 'high';
/** An account's policy for one tool: `ask` (the default), `allow` (never asks), `block` (not served). */
export type ToolPolicy = 'ask' | 'allow' | 'block';

/** MCP tool annotations, from the tool's effect in `proposes.tools`. */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint?: boolean;
  readonly openWorldHint: true;
}

/**
 * One tool as models are served it, computed from a definition's manifest alone: the host's
 * catalog (`tools/list`, the marketplace) and the harness (its Tools surface and `/mcp`) both read it.
 */
export interface ToolDescriptor {
  /** What the model calls it by (`effectiveToolName`). */
  readonly name: string;
  /** The tool's declared name, what the guest engine runs (`invokeTool`). */
  readonly toolName: string;
  /** The integration's slug. */
  readonly integration: string;
  readonly title: string;
  readonly description: string;
  /** JSON Schema 2020-12 of the arguments; `{ type: 'object' }` when the manifest could not state one. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** From `proposes.tools`; a tool the integration proposes nothing for counts as `write` and `high`. */
  readonly effect: ToolEffect;
  readonly sensitivity: ToolSensitivity;
  readonly annotations: ToolAnnotations;
}

// An input schema the manifest could not state: the tool still takes an object.
const ANY_OBJECT = { type: 'object' } as const;

/**
 * The tools of a definition that models are served, in declaration order: those with a handler and
 * a name model APIs take, by effective name, with the effect and sensitivity `proposes` gives them
 * (unproposed: `write` and `high`, the cautious reading) and the MCP annotations that follow.
 * @example toolDescriptors('acme-notes', describeDefinition(definition)).map((tool) => tool.name) // ['acme_notes_sync']
 */
export function toolDescriptors(
  slug: string,
  manifest: Pick<DefinitionManifest, 'tools' | 'proposes'>,
): ToolDescriptor[] {
  return manifest.tools
    .filter((tool) => tool.hasHandler === true && effectiveToolNameProblem(slug, tool.name) === undefined)
    .map((tool) => {
      const proposed = manifest.proposes?.tools?.[tool.name];
      const effect = proposed?.effect ?? 'write';
      return {
        name: effectiveToolName(slug, tool.name),
        toolName: tool.name,
        integration: slug,
        title: `${slug}: ${tool.name}`,
        description: tool.description,
        inputSchema: tool.inputSchema ?? ANY_OBJECT,
        effect,
        sensitivity: proposed?.sensitivity ?? 'high',
        annotations: toolAnnotations(effect),
      };
    });
}

/** MCP annotations of an effect: read is read-only; write is not destructive; destructive is; all reach the open world. */
export function toolAnnotations(effect: ToolEffect): ToolAnnotations {
  if (effect === 'read') return { readOnlyHint: true, openWorldHint: true };
  return { readOnlyHint: false, destructiveHint: effect === 'destructive', openWorldHint: true };
}

/**
 * Whether a call of the tool waits for the person's confirmation: a write or destructive effect, or
 * high sensitivity, unless the policy is `allow`. Reads of low or medium sensitivity never ask.
 */
export function needsConfirmation(
  tool: Pick<ToolDescriptor, 'effect' | 'sensitivity'>,
  policy: ToolPolicy = 'ask',
): boolean {
  if (policy === 'allow') return false;
  return tool.effect !== 'read' || tool.sensitivity === 'high';
}

/**
 * What `tools/list` shows a model of one tool (an MCP `Tool`): `_meta` carries effect,
 * sensitivity, integration and, on the host, the version number.
 */
export function mcpToolOf(tool: ToolDescriptor, version?: number): Record<string, unknown> {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
    _meta: {
      'platform/effect': tool.effect,
      'platform/sensitivity': tool.sensitivity,
      'platform/integration': tool.integration,
      ...(version === undefined ? {} : { 'platform/version': version }),
    },
  };
}
