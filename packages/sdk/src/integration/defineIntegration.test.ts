import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineIntegration } from './defineIntegration.js';
import { DEFINITION_CHECKED_GLOBAL } from './definitionChecked.js';

const invalid = {
  slug: 'Not A Valid Slug',
  actions: { ok: { description: 'Answers', input: z.object({}), handler: async () => true } },
};
const marker = globalThis as Record<string, unknown>;

describe('defineIntegration', () => {
  it('checks the definition, naming the problem', () => {
    expect(() => defineIntegration(invalid)).toThrow(
      expect.objectContaining({ name: 'IntegrationDefinitionError' }),
    );
  });

  it("skips the check where the host marked the definition as checked (an installed version's isolate)", () => {
    marker[DEFINITION_CHECKED_GLOBAL] = true;
    try {
      expect(defineIntegration(invalid)).toBe(invalid);
    } finally {
      delete marker[DEFINITION_CHECKED_GLOBAL];
    }
    // Only `true` counts.
    marker[DEFINITION_CHECKED_GLOBAL] = 'yes';
    try {
      expect(() => defineIntegration(invalid)).toThrow();
    } finally {
      delete marker[DEFINITION_CHECKED_GLOBAL];
    }
  });
});
