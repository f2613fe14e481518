/**
 * The name the model calls a tool by: the slug with `-` replaced by `_`, then `_`, then the tool
 * name (`acme-notes` + `sync` and `acme` + `notes_sync` both give `acme_notes_sync`). One function
 * for every side that names tools: `platform validate`'s collision check and the host.
 * @example effectiveToolName('acme-notes', 'sync') // 'acme_notes_sync'
 */
export function effectiveToolName(slug: string, toolName: string): string {
  return `${slug.replaceAll('-', '_')}_${toolName}`;
}
