import {
  type DefinitionManifest,
  mcpToolOf,
  needsConfirmation as needsConfirmationUnder,
  type ToolDescriptor,
  type ToolEffect,
  type ToolSensitivity,
  toolDescriptors,
} from '@platform/sdk/runtime';
import type { Queryable } from '../db/Db.js';
import { type InstalledVersion, readBundle, sourceServesAccountSql } from '../store/integrations.js';
import { type ToolPolicy, toolPolicies } from '../store/toolPolicies.js';

export type { ToolEffect, ToolSensitivity };

/**
 * One tool an account's models may see: a tool with a handler of an activated integration's live
 * version, as the sdk's `toolDescriptors` describes it, with the account's policy.
 */
export interface CatalogTool extends ToolDescriptor {
  readonly policy: ToolPolicy;
  readonly version: InstalledVersion;
  /** The integration has OAuth and the account has not connected it. */
  readonly notConnected: boolean;
}

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
 * the sdk's `toolDescriptors` (one rule for the host and the harness).
 */
export function servedTools(slug: string, manifest: DefinitionManifest): ToolDescriptor[] {
  return toolDescriptors(slug, manifest);
}

/** Whether a call of the tool waits for the person's confirmation under its policy. */
export function needsConfirmation(tool: Pick<CatalogTool, 'effect' | 'sensitivity' | 'policy'>): boolean {
  return needsConfirmationUnder(tool, tool.policy);
}

/** What `tools/list` shows a model of one tool (MCP `Tool`), with the version in `_meta`. */
export function listedTool(tool: CatalogTool): Record<string, unknown> {
  return mcpToolOf(tool, tool.version.number);
}
