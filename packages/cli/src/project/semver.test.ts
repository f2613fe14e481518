import { describe, expect, it } from 'vitest';
import { compareVersions, minimumOfRange, parseVersion, trainOf } from './semver.js';

describe('compareVersions', () => {
  // The rule is the schema package's (its tests are there); the CLI exports it as before.
  it('orders versions, a prerelease before its release, and refuses what is not a version', () => {
    expect(['0.5.0', '0.5.0-rc.1', '0.4.9'].sort(compareVersions)).toEqual(['0.4.9', '0.5.0-rc.1', '0.5.0']);
    expect(compareVersions(parseVersion('0.4.0')!, '0.4.0')).toBe(0);
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
