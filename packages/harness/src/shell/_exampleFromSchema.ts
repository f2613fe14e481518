type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * A value a webhook's payload schema accepts, to prefill the Triggers surface's editor: from the
 * schema's Standard JSON Schema (zod 4 has it) when it offers one, else `{}`.
 * @example exampleFromSchema(z.object({ type: z.enum(['a', 'b']) })) // { type: 'a' }
 */
export function exampleFromSchema(schema: unknown): unknown {
  const json = jsonSchemaOf(schema);
  if (json === undefined) return {};
  try {
    return exampleOf(json, json, 0) ?? {};
  } catch {
    return {};
  }
}

/**
 * A value a JSON Schema accepts (the Tools surface's form starts from it), or `{}` when none can be made.
 * @example exampleFromJsonSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 3 } } }) // { n: 3 }
 */
export function exampleFromJsonSchema(json: JsonSchema): unknown {
  try {
    return exampleOf(json, json, 0) ?? {};
  } catch {
    return {};
  }
}

function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  const standard = (
    schema as { '~standard'?: { jsonSchema?: { input?: (options: object) => unknown } } } | null
  )?.['~standard'];
  const input = standard?.jsonSchema?.input;
  if (typeof input !== 'function') return undefined;
  try {
    const json = input({ target: 'draft-2020-12' });
    return typeof json === 'object' && json !== null ? (json as JsonSchema) : undefined;
  } catch {
    return undefined;
  }
}

const MAX_DEPTH = 12;

function exampleOf(schema: JsonSchema, root: JsonSchema, depth: number): unknown {
  if (depth > MAX_DEPTH) return null;
  if ('const' in schema) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(schema.$ref, root);
    return target === undefined ? null : exampleOf(target, root, depth + 1);
  }
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(choices) && choices.length > 0) {
    const first = choices.find((choice) => choice.type !== 'null') ?? choices[0];
    return first === undefined ? null : exampleOf(first, root, depth + 1);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const parts = (schema.allOf as JsonSchema[]).map((part) => exampleOf(part, root, depth + 1));
    return parts.every(isObject) ? Object.assign({}, ...parts) : parts[0];
  }
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'null') : schema.type;
  switch (type) {
    case 'object':
      return objectExample(schema, root, depth);
    case 'array': {
      const items = isObject(schema.items) ? (schema.items as JsonSchema) : undefined;
      const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as JsonSchema[]) : undefined;
      if (prefix !== undefined) return prefix.map((item) => exampleOf(item, root, depth + 1));
      const count = typeof schema.minItems === 'number' ? Math.max(1, schema.minItems) : 1;
      return items === undefined
        ? []
        : Array.from({ length: count }, () => exampleOf(items, root, depth + 1));
    }
    case 'string':
      return stringExample(schema);
    case 'integer':
    case 'number':
      return numberExample(schema, type === 'integer');
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return isObject(schema.properties) ? objectExample(schema, root, depth) : null;
  }
}

function objectExample(schema: JsonSchema, root: JsonSchema, depth: number): Record<string, unknown> {
  const properties = isObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
  const result: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    result[key] = exampleOf(property, root, depth + 1);
  }
  return result;
}

const FORMATS: Record<string, string> = {
  'date-time': '2026-01-01T09:00:00.000Z',
  date: '2026-01-01',
  time: '09:00:00',
  email: 'ada@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

function stringExample(schema: JsonSchema): string {
  if (typeof schema.format === 'string' && FORMATS[schema.format] !== undefined)
    return FORMATS[schema.format] as string;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  let text = 'example';
  if (text.length < min) text = text.padEnd(min, 'x');
  if (text.length > max) text = text.slice(0, max);
  return text;
}

function numberExample(schema: JsonSchema, integer: boolean): number {
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const exclusive = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let value = 1;
  if (minimum !== undefined && value < minimum) value = minimum;
  if (exclusive !== undefined && value <= exclusive)
    value = integer ? Math.floor(exclusive) + 1 : exclusive + 1;
  if (maximum !== undefined && value > maximum) value = maximum;
  return integer ? Math.ceil(value) : value;
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    if (!isObject(node)) return undefined;
    node = (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return isObject(node) ? (node as JsonSchema) : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
