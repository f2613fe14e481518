import { describe, expect, it } from 'vitest';
import { compareVersions, minimumOfRange, parseVersion, trainOf } from './semver.js';

describe('compareVersions', () => {
  it.each([
    ['0.4.0', '0.4.0', 0],
    ['0.4.0', '0.5.0', -1],
    ['0.10.0', '0.9.9', 1],
    ['1.0.0', '0.99.0', 1],
    ['0.4.1', '0.4.0', 1],
    ['0.5.0-rc.1', '0.5.0', -1],
    ['0.5.0-rc.2', '0.5.0-rc.10', -1],
    ['0.5.0-alpha', '0.5.0-beta', -1],
    ['0.5.0-rc.1', '0.4.9', 1],
  ])('%s vs %s is %d', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
    expect(compareVersions(b, a)).toBe(-expected || 0);
  });

  it('refuses what is not a version', () => {
    expect(() => compareVersions('0.4', '0.4.0')).toThrow('not a version: 0.4');
  });
});

describe('minimumOfRange', () => {
  it.each([
    ['^0.4.0', '0.4.0'],
    ['~0.3.2', '0.3.2'],
    ['0.4.1', '0.4.1'],
    ['>=0.2.0', '0.2.0'],
    ['0.4', '0.4.0'],
    ['^1.0.0-beta.1', '1.0.0-beta.1'],
  ])('%s starts at %s', (range, version) => {
    expect(minimumOfRange(range)).toEqual(parseVersion(version));
  });

  it.each(['workspace:*', 'file:../sdk.tgz', 'latest', '*', '^0.3.0 || ^0.4.0'])(
    'cannot read %s',
    (range) => {
      expect(minimumOfRange(range)).toBeUndefined();
    },
  );

  it('names the train of a version', () => {
    expect(trainOf(parseVersion('0.4.7')!)).toBe('0.4');
  });
});
