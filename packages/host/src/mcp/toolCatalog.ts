import { effectiveToolName, effectiveToolNameProblem } from '@platform/integration-schema';
import type { DefinitionManifest } from '@platform/sdk/runtime';
import type { Queryable } from '../db/Db.js';
import { type InstalledVersion, readBundle, sourceServesAccountSql } from '../store/integrations.js';
import { type ToolPolicy, toolPolicies } from '../store/toolPolicies.js';

export type ToolEffect = 'read' | 'write' | 'destructive';
export type ToolSensitivity = 'low' | 'medium' | 'high';

/** One tool an account's models may see: a tool with a handler of an activated integration's live version. */
export interface CatalogTool {
  /** What the model calls it by (`effectiveToolName`). */
  readonly name: string;
  /** The tool's declared name, what the guest engine runs. */
  readonly toolName: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** From `proposes.tools`; a tool the integration proposes nothing for counts as `write` and `high`. */
  readonly effect: ToolEffect;
  readonly sensitivity: ToolSensitivity;
  readonly policy: ToolPolicy;
  readonly version: InstalledVersion;
  /** The integration has OAuth and the account has not connected it. */
  readonly notConnected: boolean;
}

// An input schema the manifest could not state: the tool still takes an object.
const ANY_OBJECT = { type: 'object' } as const;

// Activated integrations whose source serves the account (the tenancy rule): no other tool is served.
const CATALOG_SQL = `
SELECT i.slug, i.source_id, v.id AS version_id, v.number, v.manifest,
       oc.account_id IS NOT NULL AS connected
FROM activations a
JOIN integrations i ON i.slug = a.integration_slug
JOIN versions v ON v.id = i.live_version_id
LEFT JOIN oauth_connections oc ON oc.integration_slug = i.slug AND oc.account_id = a.account_id
WHERE a.account_id = $1 AND ${sourceServesAccountSql('i.source_id', 'a.account_id')}`;

/**
 * Every tool the account's models may call, blocked ones included (with `policy: 'block'`), in a
 * stable order (by effective name). Tools without a handler, or whose effective name a model API
 * would refuse, are left out.
 */
export async function accountTools(db: Queryable, accountId: string): Promise<CatalogTool[]> {
  const [{ rows }, policies] = await Promise.all([
    db.query(CATALOG_SQL, [accountId]),
    toolPolicies(db, accountId),
  ]);
  const tools: CatalogTool[] = [];
  for (const row of rows) {
    const manifest = row.manifest as DefinitionManifest;
    const slug = row.slug as string;
    const versionId = row.version_id as string;
    const version: InstalledVersion = {
      id: versionId,
      slug,
      number: row.number as number,
      sourceId: row.source_id as string,
      manifest,
      loadBundle: () => readBundle(db, versionId),
    };
    for (const tool of servedTools(slug, manifest)) {
      tools.push({
        ...tool,
        policy: policies.get(tool.name) ?? 'ask',
        version,
        notConnected: manifest.oauth !== undefined && row.connected !== true,
      });
    }
  }
  return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The tools of a version that models are served, as the catalog and the marketplace show them:
 * those with a handler and a name model APIs take, by effective name, with the effect and
 * sensitivity `proposes` gives them (unproposed: `write` and `high`, the cautious reading).
 */
export function servedTools(
  slug: string,
  manifest: DefinitionManifest,
): Pick<CatalogTool, 'name' | 'toolName' | 'description' | 'inputSchema' | 'effect' | 'sensitivity'>[] {
  return manifest.tools
    .filter((tool) => tool.hasHandler === true && effectiveToolNameProblem(slug, tool.name) === undefined)
    .map((tool) => {
      const proposed = manifest.proposes?.tools?.[tool.name];
      return {
        name: effectiveToolName(slug, tool.name),
        toolName: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema ?? ANY_OBJECT,
        effect: proposed?.effect ?? 'write',
        sensitivity: proposed?.sensitivity ?? 'high',
      };
    });
}

/** Whether a call of the tool waits for the person's confirmation under its policy. */
export function needsConfirmation(tool: Pick<CatalogTool, 'effect' | 'sensitivity' | 'policy'>): boolean {
  if (tool.policy === 'allow') return false;
  return tool.effect !== 'read' || tool.sensitivity === 'high';
}

/** What `tools/list` shows a model of one tool (MCP `Tool`). */
export function listedTool(tool: CatalogTool): Record<string, unknown> {
  const annotations =
    tool.effect === 'read'
      ? { readOnlyHint: true, openWorldHint: true }
      : tool.effect === 'write'
        ? { readOnlyHint: false, destructiveHint: false, openWorldHint: true }
        : { readOnlyHint: false, destructiveHint: true, openWorldHint: true };
  return {
    name: tool.name,
    title: `${tool.version.slug}: ${tool.toolName}`,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations,
    _meta: {
      'platform/effect': tool.effect,
      'platform/sensitivity': tool.sensitivity,
      'platform/integration': tool.version.slug,
      'platform/version': tool.version.number,
    },
  };
}
