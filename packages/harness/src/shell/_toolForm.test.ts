import { describe, expect, it } from 'vitest';
import { initialToolFormValues, toolArgumentsFromForm, toolFormFields } from './_toolForm.js';

const schema = {
  type: 'object',
  properties: {
    text: { type: 'string', description: 'What to find' },
    limit: { type: 'integer', minimum: 1 },
    sort: { type: 'string', enum: ['newest', 'oldest'] },
    archived: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['text', 'sort', 'tags'],
};

describe('the Tools surface form', () => {
  const fields = toolFormFields(schema)!;

  it('has one field per property: inputs for scalars, a select for an enum, JSON for the rest', () => {
    expect(fields.map((field) => [field.name, field.kind, field.required])).toEqual([
      ['text', 'string', true],
      ['limit', 'integer', false],
      ['sort', 'enum', true],
      ['archived', 'boolean', false],
      ['tags', 'json', true],
    ]);
    expect(fields[0]?.description).toBe('What to find');
    expect(toolFormFields({ type: 'object' })).toBeUndefined();
  });

  it('starts required fields from the schema example and leaves optional ones empty', () => {
    expect(initialToolFormValues(schema, fields)).toEqual({
      text: 'example',
      limit: '',
      sort: 'newest',
      archived: false,
      tags: '[\n  "example"\n]',
    });
  });

  it('sends what the form says: numbers as numbers, JSON parsed, empty optional fields left out', () => {
    expect(toolArgumentsFromForm(fields, initialToolFormValues(schema, fields))).toEqual({
      ok: true,
      args: { text: 'example', sort: 'newest', tags: ['example'] },
    });
    expect(
      toolArgumentsFromForm(fields, { text: '', limit: '3', sort: 'oldest', archived: true, tags: '[]' }),
    ).toEqual({ ok: true, args: { text: '', limit: 3, sort: 'oldest', archived: true, tags: [] } });
    // Text that is not a number goes as typed, so the tool's own schema names the field.
    expect(
      toolArgumentsFromForm(fields, { text: 'a', limit: 'many', sort: 'newest', tags: '[]' }),
    ).toMatchObject({
      args: { limit: 'many' },
    });
    expect(toolArgumentsFromForm(fields, { text: 'a', sort: 'newest', tags: '[' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('tags is not JSON'),
    });
  });
});
