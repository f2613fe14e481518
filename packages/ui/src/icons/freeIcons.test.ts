import { createRequire } from 'node:module';
import { FREE_ICON_NAMES, isFreeIconName, normalizeIconName, suggestFreeIconName } from '@platform/ui/icons';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

describe('FREE_ICON_NAMES', () => {
  it('is exactly the names and aliases of the installed Font Awesome Free packages', () => {
    const installed = new Set<string>();
    for (const style of ['solid', 'regular', 'brands']) {
      const icons = require(`@fortawesome/free-${style}-svg-icons`) as Record<string, unknown>;
      for (const value of Object.values(icons)) {
        if (typeof value !== 'object' || value === null || !('iconName' in value)) continue;
        const definition = value as { iconName: string; icon: [number, number, (string | number)[]] };
        installed.add(definition.iconName);
        for (const alias of definition.icon[2]) if (typeof alias === 'string') installed.add(alias);
      }
    }
    // When this fails after a Font Awesome upgrade: node packages/ui/scripts/generateFreeIconNames.mjs
    expect([...FREE_ICON_NAMES]).toEqual([...installed].sort());
  });

  it('holds solid, regular and brand names and aliases, and no Pro-only name', () => {
    for (const name of ['house', 'calendar', 'address-book', 'github', 'ellipsis-v', 'thumbtack']) {
      expect(FREE_ICON_NAMES).toContain(name);
    }
    for (const name of ['calendar-heart', 'house-chimney-heart', 'sparkles', 'stars']) {
      expect(FREE_ICON_NAMES).not.toContain(name);
    }
  });
});

describe('isFreeIconName / normalizeIconName', () => {
  it('accepts the bare name and the class-list forms', () => {
    expect(normalizeIconName('fa-solid fa-House')).toBe('house');
    expect(normalizeIconName('fas fa-calendar-days')).toBe('calendar-days');
    expect(normalizeIconName(' fa-github ')).toBe('github');
    expect(isFreeIconName('fa-regular fa-calendar')).toBe(true);
    expect(isFreeIconName('calendar-heart')).toBe(false);
    expect(isFreeIconName('')).toBe(false);
  });
});

describe('suggestFreeIconName', () => {
  it.each([
    ['house', 'house'],
    ['fa-light fa-house', 'house'],
    ['calendar-heart', 'calendar'],
    ['house-chimney-heart', 'house-chimney'],
    ['file-magnifying-glass', 'magnifying-glass'],
    ['calender', 'calendar'],
    ['thumbtak', 'thumbtack'],
  ])('%s → %s', (name, suggestion) => {
    expect(suggestFreeIconName(name)).toBe(suggestion);
  });

  it('suggests nothing when nothing is close', () => {
    expect(suggestFreeIconName('zzzzqqqqxxxx')).toBeUndefined();
    expect(suggestFreeIconName('')).toBeUndefined();
  });

  it('only ever suggests a free name', () => {
    for (const name of ['sparkles', 'stars', 'user-helmet-safety', 'wand-sparkles-bright', 'pen-circle']) {
      const suggestion = suggestFreeIconName(name);
      if (suggestion !== undefined) expect(FREE_ICON_NAMES).toContain(suggestion);
    }
  });
});
