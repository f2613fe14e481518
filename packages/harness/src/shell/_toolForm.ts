import { exampleFromJsonSchema } from './_exampleFromSchema.js';

type JsonSchema = Readonly<Record<string, unknown>>;

/** One field of a tool's form: an input for a scalar property, a JSON editor for anything else. */
export interface ToolFormField {
  readonly name: string;
  readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';
  readonly required: boolean;
  readonly description?: string;
  readonly options?: readonly string[];
}

export type ToolFormValues = Readonly<Record<string, string | boolean>>;

/**
 * The form of a tool's input JSON Schema: one field per top-level property (scalars as inputs, enums
 * of strings as selects, the rest as JSON), or undefined when the root states no properties (then
 * the surface offers the arguments as one JSON editor).
 */
export function toolFormFields(schema: JsonSchema): ToolFormField[] | undefined {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return undefined;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties as Record<string, JsonSchema>).map(([name, property]) => {
    const description = typeof property.description === 'string' ? property.description : undefined;
    const base = {
      name,
      required: required.has(name),
      ...(description === undefined ? {} : { description }),
    };
    const choices = property.enum;
    if (Array.isArray(choices) && choices.length > 0 && choices.every((choice) => typeof choice === 'string'))
      return { ...base, kind: 'enum', options: choices as string[] };
    const type = property.type;
    if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean')
      return { ...base, kind: type };
    return { ...base, kind: 'json' };
  });
}

/** The form's first values: the schema's example for required fields, empty optional ones (not sent). */
export function initialToolFormValues(schema: JsonSchema, fields: readonly ToolFormField[]): ToolFormValues {
  const example = exampleFromJsonSchema(schema) as Record<string, unknown>;
  const values: Record<string, string | boolean> = {};
  for (const field of fields) {
    const value = example?.[field.name];
    if (field.kind === 'boolean') values[field.name] = field.required && value === true;
    else if (!field.required) values[field.name] = '';
    else if (field.kind === 'json') values[field.name] = JSON.stringify(value ?? null, null, 2);
    else values[field.name] = value === undefined || value === null ? '' : String(value);
  }
  return values;
}

/**
 * The arguments the form says, as the tool is called with them: empty optional fields left out,
 * numbers as numbers (text that is not one is sent as typed, so the tool's schema names it), JSON
 * fields parsed; or which field is not JSON.
 */
export function toolArgumentsFromForm(
  fields: readonly ToolFormField[],
  values: ToolFormValues,
): { ok: true; args: Record<string, unknown> } | { ok: false; message: string } {
  const args: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'boolean') {
      if (value === true || field.required) args[field.name] = value === true;
      continue;
    }
    const text = typeof value === 'string' ? value : '';
    if (text.trim() === '' && !field.required) continue;
    if (field.kind === 'number' || field.kind === 'integer') {
      const number = Number(text);
      args[field.name] = text.trim() === '' || Number.isNaN(number) ? text : number;
    } else if (field.kind === 'json') {
      try {
        args[field.name] = JSON.parse(text);
      } catch (error) {
        return { ok: false, message: `${field.name} is not JSON: ${(error as Error).message}` };
      }
    } else {
      args[field.name] = text;
    }
  }
  return { ok: true, args };
}
