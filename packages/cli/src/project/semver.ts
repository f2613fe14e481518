/** A parsed `major.minor.patch[-prerelease]` version. */
export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly prerelease: readonly string[];
}

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Parses a version such as `0.4.0` or `1.2.3-beta.1`; `undefined` for anything else. */
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
 * Orders two versions as semver does (a prerelease sorts before its release); negative when `a`
 * is older.
 * @example compareVersions('0.4.0', '0.5.0-rc.1') < 0
 */
export function compareVersions(a: string | Version, b: string | Version): number {
  const left = typeof a === 'string' ? parseVersion(a) : a;
  const right = typeof b === 'string' ? parseVersion(b) : b;
  if (left === undefined || right === undefined) throw new Error(`not a version: ${String(left ? b : a)}`);
  const core = left.major - right.major || left.minor - right.minor || left.patch - right.patch;
  if (core !== 0) return Math.sign(core);
  if (left.prerelease.length === 0 && right.prerelease.length === 0) return 0;
  if (left.prerelease.length === 0) return 1;
  if (right.prerelease.length === 0) return -1;
  for (let i = 0; i < Math.max(left.prerelease.length, right.prerelease.length); i++) {
    const x = left.prerelease[i];
    const y = right.prerelease[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    const order = numeric ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}

/**
 * The lowest version a simple dependency range admits (`^0.4.0`, `~0.4.1`, `0.4.0`, `>=0.4.0`,
 * `0.4`), or `undefined` for anything else (tags, `*`, unions, file: and workspace: specs).
 */
export function minimumOfRange(range: string): Version | undefined {
  const match = /^(?:\^|~|>=|=)?\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?$/.exec(range.trim());
  if (match === null) return undefined;
  return parseVersion(`${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}${match[4] ?? ''}`);
}

/** `major.minor` of a version: the release train (`0.4` for `0.4.2`). */
export function trainOf(version: Version): string {
  return `${version.major}.${version.minor}`;
}
