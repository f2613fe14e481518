/** A parsed `major.minor.patch[-prerelease]` version (build metadata dropped). */
export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly prerelease: readonly string[];
}

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;
const NUMERIC = /^\d+$/;

/**
 * Parses a version such as `0.4.0`, `v1.2.3` or `1.2.3-beta.1+build.5`; `undefined` for anything else.
 * @example parseVersion('1.2.3-rc.1') // { major: 1, minor: 2, patch: 3, prerelease: ['rc', '1'] }
 */
export function parseVersion(text: string): Version | undefined {
  const match = VERSION.exec(text.trim());
  if (match === null) return undefined;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3]),
    prerelease: match[4] === undefined ? [] : match[4].split('.'),
  };
}

/**
 * Orders two versions by semver precedence, the one rule the CLI and the host's package registry
 * sort by: build metadata ignored, a prerelease before its release, numeric identifiers compared
 * as numbers and before alphanumeric ones. Negative when `a` is older; throws on a non-version.
 * @example ['1.0.0', '0.4.0-rc.1', '0.4.0'].sort(compareVersions) // ['0.4.0-rc.1', '0.4.0', '1.0.0']
 */
export function compareVersions(a: string | Version, b: string | Version): number {
  const left = typeof a === 'string' ? parseVersion(a) : a;
  const right = typeof b === 'string' ? parseVersion(b) : b;
  if (left === undefined || right === undefined) throw new Error(`not a version: ${String(left ? b : a)}`);
  const core = left.major - right.major || left.minor - right.minor || left.patch - right.patch;
  if (core !== 0) return Math.sign(core);
  if (left.prerelease.length === 0 || right.prerelease.length === 0)
    return Math.sign(right.prerelease.length - left.prerelease.length);
  for (let i = 0; i < Math.max(left.prerelease.length, right.prerelease.length); i++) {
    const x = left.prerelease[i];
    const y = right.prerelease[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    if (x === y) continue;
    const xNumeric = NUMERIC.test(x);
    const yNumeric = NUMERIC.test(y);
    if (xNumeric && yNumeric) return Math.sign(Number(x) - Number(y));
    if (xNumeric !== yNumeric) return xNumeric ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}
