import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareVersions, minimumOfRange, parseVersion, trainOf } from './semver.js';

/** What the project's `@platform` registry (the Platform host's `/registry/`) serves. */
export interface RegistryVersions {
  /** `@platform:registry` of the project's `.npmrc`; null when it has none (npm would ask the public registry). */
  readonly url: string | null;
  /** The registry answered every packument request (404s included). */
  readonly reachable: boolean;
  /** Why it was not reachable. */
  readonly error?: string;
  /** `dist-tags.latest` of each package the registry serves. */
  readonly latest: Readonly<Record<string, string>>;
  /** Every version it serves, per package. */
  readonly versions: Readonly<Record<string, readonly string[]>>;
}

/** The `@platform:registry=` line of `<dir>/.npmrc`, with a trailing slash; undefined without one. */
export function projectRegistry(dir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, '.npmrc'), 'utf8');
  } catch {
    return undefined;
  }
  const match = /^\s*@platform:registry\s*=\s*(\S+)\s*$/m.exec(text);
  if (!match?.[1]) return undefined;
  return match[1].endsWith('/') ? match[1] : `${match[1]}/`;
}

/**
 * Reads the packuments of `names` from the project's registry (npm's abbreviated form; 5 s for
 * all). Never throws: an unreachable registry is reported, and `upgrade` goes on with its own
 * train's pins.
 * @example await readRegistryVersions(cwd, ['@platform/sdk', '@platform/cli']);
 */
export async function readRegistryVersions(
  dir: string,
  names: readonly string[],
  timeoutMs = 5_000,
): Promise<RegistryVersions> {
  const url = projectRegistry(dir);
  if (url === undefined) return { url: null, reachable: false, latest: {}, versions: {} };
  const latest: Record<string, string> = {};
  const versions: Record<string, string[]> = {};
  // One deadline for all of them, asked at once: a host that does not answer costs timeoutMs.
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const documents = await Promise.all(
      names.map(async (name) => {
        const response = await fetch(new URL(name.replace('/', '%2f'), url), {
          headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8' },
          signal,
        });
        if (response.status === 404) return [name, undefined] as const;
        if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
        return [
          name,
          (await response.json()) as { 'dist-tags'?: { latest?: unknown }; versions?: object },
        ] as const;
      }),
    );
    for (const [name, doc] of documents) {
      if (doc === undefined) continue;
      const served = Object.keys(doc.versions ?? {}).filter((version) => parseVersion(version) !== undefined);
      versions[name] = served.sort(compareVersions);
      if (typeof doc['dist-tags']?.latest === 'string') latest[name] = doc['dist-tags'].latest;
    }
  } catch (error) {
    return { url, reachable: false, error: (error as Error).message, latest: {}, versions: {} };
  }
  return { url, reachable: true, latest, versions };
}

/**
 * Whether the registry serves a version a caret range on a 0.x or 1+ train admits: at least the
 * range's minimum, on its train (`^0.4.0`: 0.4.x; `^1.2.0`: 1.x). Ranges it cannot read count as served.
 */
export function servesRange(served: readonly string[], range: string): boolean {
  const minimum = minimumOfRange(range);
  if (minimum === undefined) return true;
  return served.some((text) => {
    const version = parseVersion(text);
    if (version === undefined || version.prerelease.length > 0 || compareVersions(version, minimum) < 0)
      return false;
    return minimum.major === 0 ? trainOf(version) === trainOf(minimum) : version.major === minimum.major;
  });
}
