import { parseVersion, type Version } from '@platform/integration-schema';

// The versions rule (parse, precedence) is the schema package's, shared with the host's registry;
// the CLI exports it as it always has.
export { compareVersions, parseVersion, type Version } from '@platform/integration-schema';

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
