import { zodToJsonSchema } from 'zod-to-json-schema';

/** Common MCP clients drop a tool whose input JSON Schema is larger than this (in JSON characters). */
export const TOOL_INPUT_SCHEMA_MAX_CHARS = 20_000;

/** A tool with no input schema takes no arguments: the JSON Schema every MCP client accepts for that. */
export const NO_ARGUMENTS_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  properties: {},
  additionalProperties: false,
});

export type ToolInputSchemaResult =
  | { readonly ok: true; readonly schema: Record<string, unknown> }
  /** Why this schema cannot be stated as JSON Schema (a transform, a custom check, an unknown library). */
  | { readonly ok: false; readonly reason: string };

type JsonSchemaConverter = (options: { target: string }) => Record<string, unknown>;

interface StandardJsonSchemaCapable {
  readonly '~standard'?: {
    readonly vendor?: string;
    readonly jsonSchema?: { readonly input?: JsonSchemaConverter; readonly output?: JsonSchemaConverter };
  };
  readonly _def?: unknown;
}

/**
 * The JSON Schema (draft 2020-12) of a tool's input, as a model sees it in `tools/list`: from the
 * schema's own Standard JSON Schema converter (zod 4, and other libraries that implement it), or,
 * for zod 3 schemas, from `zod-to-json-schema` (draft-07 keywords, which 2020-12 reads the same
 * except tuples). Runs beside the definition (in the isolate on the host), never throws.
 * @example const result = toolInputSchema(tool.input); // { ok: true, schema: { type: 'object', ... } }
 */
export function toolInputSchema(schema: unknown): ToolInputSchemaResult {
  if (schema === undefined) return { ok: true, schema: { ...NO_ARGUMENTS_SCHEMA, properties: {} } };
  return jsonSchemaOf(schema, 'input');
}

/**
 * The JSON Schema (draft 2020-12, output side) of a tool's declared `output`, what `tools/list`
 * shows a model as `outputSchema`: converted as {@link toolInputSchema} converts an input.
 * @example const result = toolOutputSchema(tool.output); // { ok: true, schema: { type: 'object', ... } }
 */
export function toolOutputSchema(schema: unknown): ToolInputSchemaResult {
  return jsonSchemaOf(schema, 'output');
}

/**
 * Why a tool's output JSON Schema cannot be an MCP `outputSchema`, or undefined: MCP carries a
 * result as `structuredContent`, one object, so the root must be `type: "object"`. `platform
 * validate` warns with it, and the host then lists the tool without an `outputSchema`.
 */
export function toolOutputSchemaProblem(schema: Readonly<Record<string, unknown>>): string | undefined {
  if (schema.type !== 'object')
    return `its output schema's root is ${schema.type === undefined ? 'not typed' : `"${String(schema.type)}"`}, but MCP carries a tool's result as one object; wrap the output in z.object({ ... })`;
  return undefined;
}

function jsonSchemaOf(schema: unknown, side: 'input' | 'output'): ToolInputSchemaResult {
  const standard = (schema as StandardJsonSchemaCapable)['~standard'];
  try {
    const converted = standard?.jsonSchema?.[side]?.({ target: 'draft-2020-12' });
    if (converted !== undefined) return { ok: true, schema: withoutDialect(converted) };
    if (standard?.vendor === 'zod' && (schema as StandardJsonSchemaCapable)._def !== undefined) {
      const zod3 = zodToJsonSchema(schema as Parameters<typeof zodToJsonSchema>[0], {
        target: 'jsonSchema7',
        $refStrategy: 'none',
        effectStrategy: side === 'input' ? 'input' : 'any',
      }) as Record<string, unknown>;
      return { ok: true, schema: withoutDialect(zod3) };
    }
  } catch (error) {
    return { ok: false, reason: `its JSON Schema cannot be made (${(error as Error).message})` };
  }
  return {
    ok: false,
    reason: `a ${standard?.vendor ?? 'non-standard'} schema that states no JSON Schema (use zod 4 or zod 3, or a library with a Standard JSON Schema converter)`,
  };
}

// The host states the dialect itself (2020-12); a converter's own `$schema` line is dropped.
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/**
 * Why common MCP clients would drop or mangle a tool with this input JSON Schema, or undefined:
 * a root that is not `type: "object"`, a root `anyOf` / `allOf` / `oneOf`, or a schema over
 * {@link TOOL_INPUT_SCHEMA_MAX_CHARS} characters of JSON. `platform validate` warns with it.
 */
export function toolInputSchemaProblem(schema: Readonly<Record<string, unknown>>): string | undefined {
  for (const keyword of ['anyOf', 'allOf', 'oneOf'] as const) {
    if (Object.hasOwn(schema, keyword))
      return `its input schema has a root "${keyword}", which common MCP clients drop; make the root one object and move the alternatives into a property`;
  }
  if (schema.type !== 'object')
    return `its input schema's root is ${schema.type === undefined ? 'not typed' : `"${String(schema.type)}"`}, but a tool's arguments are one object; wrap the input in z.object({ ... })`;
  const size = JSON.stringify(schema).length;
  if (size > TOOL_INPUT_SCHEMA_MAX_CHARS)
    return `its input schema is ${size} characters of JSON Schema, over the ${TOOL_INPUT_SCHEMA_MAX_CHARS} that common MCP clients accept; split the tool or simplify its input`;
  return undefined;
}
