import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { effectiveToolNameProblem } from './toolName.js';
import { TOOL_INPUT_SCHEMA_MAX_CHARS, toolInputSchema, toolInputSchemaProblem } from './toolSchema.js';

const schemaOf = (input: unknown) => {
  const result = toolInputSchema(input);
  if (!result.ok) throw new Error(result.reason);
  return result.schema;
};

describe('toolInputSchema', () => {
  it('states zod 4 and zod 3 objects as the same JSON Schema object', () => {
    const four = schemaOf(z.object({ q: z.string(), n: z.number().optional() }));
    const three = schemaOf(z3.object({ q: z3.string(), n: z3.number().optional() }));
    for (const schema of [four, three]) {
      expect(schema).toMatchObject({
        type: 'object',
        properties: { q: { type: 'string' }, n: { type: 'number' } },
      });
      expect(schema.required).toEqual(['q']);
      expect(schema).not.toHaveProperty('$schema');
    }
  });

  it('says why when a schema states no JSON Schema', () => {
    const transformed = toolInputSchema(z.object({ q: z.custom<string>(() => true) }));
    expect(transformed.ok).toBe(false);
    const foreign = toolInputSchema({
      '~standard': { version: 1, vendor: 'other', validate: () => ({ value: 1 }) },
    });
    expect(foreign).toEqual({
      ok: false,
      reason: expect.stringContaining('a other schema that states no JSON Schema'),
    });
  });
});

describe('toolInputSchemaProblem', () => {
  it('accepts one object, and names a root union, a non-object root and an oversized schema', () => {
    expect(toolInputSchemaProblem(schemaOf(z.object({ q: z.string() })))).toBeUndefined();
    expect(
      toolInputSchemaProblem(schemaOf(z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]))),
    ).toMatch(/root "anyOf"/);
    expect(toolInputSchemaProblem(schemaOf(z.string()))).toMatch(/root is "string"/);
    const wide = z.object(
      Object.fromEntries(
        Array.from({ length: 800 }, (_, i) => [`field_${i}`, z.string().describe('x'.repeat(20))]),
      ),
    );
    expect(toolInputSchemaProblem(schemaOf(wide))).toMatch(
      new RegExp(`over the ${TOOL_INPUT_SCHEMA_MAX_CHARS}`),
    );
  });
});

describe('effectiveToolNameProblem', () => {
  it('allows 64 characters and names the longest tool name that would fit', () => {
    const slug = 'acme-notes'; // acme_notes_ is 11 characters
    expect(effectiveToolNameProblem(slug, 'a'.repeat(53))).toBeUndefined();
    expect(effectiveToolNameProblem(slug, 'a'.repeat(54))).toMatch(/65 characters.*at most 53 characters/);
  });
});
