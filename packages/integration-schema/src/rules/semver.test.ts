import { describe, expect, it } from 'vitest';
import { compareVersions, parseVersion } from './semver.js';

describe('compareVersions', () => {
  it.each([
    ['0.4.0', '0.4.0', 0],
    ['0.4.0', '0.5.0', -1],
    ['0.10.0', '0.9.9', 1],
    ['1.0.0', '0.99.0', 1],
    ['0.5.0-rc.1', '0.5.0', -1],
    ['0.5.0-rc.2', '0.5.0-rc.10', -1],
    ['0.5.0-alpha', '0.5.0-alpha.1', -1],
    // Numeric identifiers before alphanumeric ones, whatever their characters ('-' sorts before digits).
    ['1.0.0-1', '1.0.0--x', -1],
    ['1.0.0-rc.1+build.9', '1.0.0-rc.1+build.1', 0],
    ['v1.2.3', '1.2.3', 0],
  ])('%s vs %s is %d', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
    expect(compareVersions(b, a)).toBe(-expected || 0);
  });

  it('sorts as npm does, and refuses what is not a version', () => {
    expect(['1.0.0', '0.4.0-rc.1', '0.4.0', '0.4.0-beta'].sort(compareVersions)).toEqual([
      '0.4.0-beta',
      '0.4.0-rc.1',
      '0.4.0',
      '1.0.0',
    ]);
    expect(() => compareVersions('latest', '0.4.0')).toThrow('not a version: latest');
    expect(parseVersion('0.4')).toBeUndefined();
  });
});
