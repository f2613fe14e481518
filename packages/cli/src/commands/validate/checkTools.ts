import {
  effectiveToolNameProblem,
  toolInputSchema,
  toolInputSchemaProblem,
  toolOutputSchema,
  toolOutputSchemaProblem,
} from '@platform/integration-schema';
import { type Finding, finding } from './finding.js';
import type { LoadedIntegration } from './loadDefinitions.js';

interface ToolValue {
  readonly name?: unknown;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly handler?: unknown;
}

/**
 * What models would make of each tool of one integration: `tool.name-too-long` (error) when its
 * effective name is over 64 characters, `tool.no-handler` (warning) when no model can call it,
 * `tool.input-schema` (warning) when its input's JSON Schema is one that common MCP clients drop,
 * `tool.output-schema` (warning) when its declared output cannot be an MCP `outputSchema`.
 * The rules are integration-schema's (`rules/toolName.ts`, `rules/toolSchema.ts`), shared with the host.
 */
export function checkTools(integration: LoadedIntegration): Finding[] {
  const tools = (integration.definition as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools)) return [];
  const slug = integration.definitionSlug ?? integration.slug;
  const findings: Finding[] = [];
  tools.forEach((value: unknown, index) => {
    const tool = (value ?? {}) as ToolValue;
    if (typeof tool.name !== 'string') return;
    const where = `${integration.slug}: tool "${tool.name}"`;
    const tooLong = effectiveToolNameProblem(slug, tool.name);
    if (tooLong !== undefined) {
      findings.push(
        finding('tool.name-too-long', {
          message: `${integration.slug}: ${tooLong}`,
          path: `tools.${index}.name`,
          hint: `Rename the tool in ${integration.entry} so that "${slug.replaceAll('-', '_')}_" plus its name fits in 64 characters.`,
        }),
      );
    }
    if (typeof tool.handler !== 'function') {
      findings.push(
        finding('tool.no-handler', {
          message: `${where} has no handler, so no model can call it (the host does not list it)`,
          path: `tools.${index}.handler`,
          hint: `Add handler: async (ctx, input) => { ... } to the tool in ${integration.entry}, or remove the tool.`,
        }),
      );
    }
    const shape = toolInputSchema(tool.input);
    const problem = shape.ok ? toolInputSchemaProblem(shape.schema) : shape.reason;
    if (problem !== undefined) {
      findings.push(
        finding('tool.input-schema', {
          message: `${where}: ${problem}`,
          path: `tools.${index}.input`,
          hint: shape.ok
            ? `Change the tool's input schema in ${integration.entry} as the message says; models see it as JSON Schema.`
            : `Give the tool a zod input schema in ${integration.entry}, without transforms or custom checks, so the host can show models its JSON Schema.`,
        }),
      );
    }
    if (tool.output !== undefined) {
      const output = toolOutputSchema(tool.output);
      const outputProblem = output.ok ? toolOutputSchemaProblem(output.schema) : output.reason;
      if (outputProblem !== undefined) {
        findings.push(
          finding('tool.output-schema', {
            message: `${where}: ${outputProblem}; the host lists it without an outputSchema`,
            path: `tools.${index}.output`,
            hint: output.ok
              ? `Make the tool's output in ${integration.entry} one z.object({ ... }); models read the result as one object.`
              : `Give the tool a zod output schema in ${integration.entry}, without transforms or custom checks, so the host can show models its JSON Schema.`,
          }),
        );
      }
    }
  });
  return findings;
}
