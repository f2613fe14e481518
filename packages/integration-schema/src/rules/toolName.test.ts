import { effectiveToolName } from '@platform/integration-schema';
import { describe, expect, it } from 'vitest';

describe('effectiveToolName', () => {
  it.each([
    ['acme', 'sync', 'acme_sync'],
    ['acme-notes', 'sync', 'acme_notes_sync'],
    ['acme', 'notes_sync', 'acme_notes_sync'],
    ['a-b-c', 'list_items', 'a_b_c_list_items'],
  ])('%s + %s gives %s', (slug, tool, expected) => {
    expect(effectiveToolName(slug, tool)).toBe(expected);
  });
});
