import { describe, expect, it } from 'vitest';
import { boundedMemo } from './_boundedMemo.js';

describe('boundedMemo', () => {
  it('computes a key once, and again only after the bound forgot it', () => {
    const computed: string[] = [];
    const upper = boundedMemo(2, (key) => {
      computed.push(key);
      return key === 'none' ? undefined : key.toUpperCase();
    });
    expect([upper('a'), upper('a'), upper('none'), upper('none')]).toEqual(['A', 'A', undefined, undefined]);
    expect(computed).toEqual(['a', 'none']);
    // A third key finds the memo full: everything is forgotten, then the new key kept.
    expect(upper('b')).toBe('B');
    expect(upper('a')).toBe('A');
    expect(computed).toEqual(['a', 'none', 'b', 'a']);
  });
});
