/**
 * The name the model calls a tool by: the slug with `-` replaced by `_`, then `_`, then the tool
 * name (`acme-notes` + `sync` and `acme` + `notes_sync` both give `acme_notes_sync`). One function
 * for every side that names tools: `platform validate`'s collision check and the host.
 * @example effectiveToolName('acme-notes', 'sync') // 'acme_notes_sync'
 */
export function effectiveToolName(slug: string, toolName: string): string {
  return `${slug.replaceAll('-', '_')}_${toolName}`;
}

/** Model APIs refuse a tool whose name is longer than this. */
export const EFFECTIVE_TOOL_NAME_MAX_LENGTH = 64;

/**
 * Why a tool's effective name cannot be called by a model, or undefined: over
 * {@link EFFECTIVE_TOOL_NAME_MAX_LENGTH} characters. `platform validate` reports it as an error,
 * and the host lists no such tool.
 * @example effectiveToolNameProblem('acme-notes', 'sync') // undefined
 */
export function effectiveToolNameProblem(slug: string, toolName: string): string | undefined {
  const effective = effectiveToolName(slug, toolName);
  if (effective.length <= EFFECTIVE_TOOL_NAME_MAX_LENGTH) return undefined;
  return `tool "${toolName}" becomes "${effective}", ${effective.length} characters; model APIs refuse tool names over ${EFFECTIVE_TOOL_NAME_MAX_LENGTH}, so shorten the tool name to at most ${Math.max(1, EFFECTIVE_TOOL_NAME_MAX_LENGTH - slug.length - 1)} characters`;
}
