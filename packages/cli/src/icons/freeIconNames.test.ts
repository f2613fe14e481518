import { describe, expect, it } from 'vitest';
import { FREE_ICON_PACKAGES, freeIconNames } from './freeIconNames.js';

describe('freeIconNames', () => {
  it('reads exactly the names and aliases the evaluated Font Awesome Free modules hold', async () => {
    const evaluated = new Set<string>();
    for (const name of FREE_ICON_PACKAGES) {
      const icons = (await import(name)) as Record<string, { iconName?: unknown; icon?: unknown[] }>;
      for (const icon of Object.values(icons)) {
        if (typeof icon?.iconName !== 'string') continue;
        evaluated.add(icon.iconName);
        const aliases = icon.icon?.[2];
        if (Array.isArray(aliases))
          for (const alias of aliases) if (typeof alias === 'string') evaluated.add(alias);
      }
    }
    const read = await freeIconNames();
    expect(read.size).toBeGreaterThan(2000);
    expect([...read].sort()).toEqual([...evaluated].sort());
  });

  it('holds free names, their aliases and brands, and no Pro-only names', async () => {
    const names = await freeIconNames();
    for (const name of ['house', 'home', 'list-check', 'note-sticky', 'github'])
      expect(names.has(name)).toBe(true);
    for (const name of ['house-chimney-heart', 'sparkles']) expect(names.has(name)).toBe(false);
  });
});
