import { effectiveToolName } from '@platform/integration-schema';
import { toolsOf, widgetsOf } from './declarations.js';
import { type Finding, finding } from './finding.js';
import type { LoadedIntegration } from './loadDefinitions.js';

/** `collision.widget-id`: two integrations of one manifest declare the same widget id. */
export function checkWidgetIdCollisions(integrations: readonly LoadedIntegration[]): Finding[] {
  const owners = new Map<string, LoadedIntegration>();
  const findings: Finding[] = [];
  for (const integration of integrations) {
    for (const widget of widgetsOf(integration.definition)) {
      const owner = owners.get(widget.id);
      if (owner === undefined) {
        owners.set(widget.id, integration);
      } else if (owner !== integration) {
        findings.push(
          finding('collision.widget-id', {
            message: `${integration.slug}: widget id "${widget.id}" is also declared by "${owner.slug}" (${owner.entry}); widget ids are global`,
            path: `components.widgets.${widget.index}.id`,
            hint: `Rename the widget in ${integration.entry}; prefix widget ids with their integration's slug (for example "${integration.slug}-${widget.id}").`,
          }),
        );
      }
    }
  }
  return findings;
}

/** `collision.tool-name`: two tools of one manifest end up with the same slug-prefixed name. */
export function checkToolNameCollisions(integrations: readonly LoadedIntegration[]): Finding[] {
  const owners = new Map<string, { integration: LoadedIntegration; name: string }>();
  const findings: Finding[] = [];
  for (const integration of integrations) {
    for (const tool of toolsOf(integration.definition)) {
      const effective = effectiveToolName(integration.definitionSlug ?? integration.slug, tool.name);
      const owner = owners.get(effective);
      if (owner === undefined) {
        owners.set(effective, { integration, name: tool.name });
      } else if (owner.integration !== integration) {
        findings.push(
          finding('collision.tool-name', {
            message: `${integration.slug}: tool "${tool.name}" becomes "${effective}", the same name as tool "${owner.name}" of "${owner.integration.slug}"`,
            path: `tools.${tool.index}.name`,
            hint: `Rename tool "${tool.name}" in ${integration.entry} (or "${owner.name}" in ${owner.integration.entry}) so their slug-prefixed names differ.`,
          }),
        );
      }
    }
  }
  return findings;
}
