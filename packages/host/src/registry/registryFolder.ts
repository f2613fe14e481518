import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseVersion } from '@platform/integration-schema';
import { readPackageJson, TarballError } from './readPackageJson.js';

/** The scope the registry serves; other names in the folder are ignored. */
export const REGISTRY_SCOPE = '@platform';

/** One version of one package: a `*.tgz` of the folder. */
export interface RegistryEntry {
  readonly name: string;
  readonly version: string;
  /** The tarball's package.json. */
  readonly manifest: Record<string, unknown>;
  readonly file: string;
  /** `sha512-<base64>` (SRI), as npm's lockfile records it. */
  readonly integrity: string;
  /** sha1, hex. */
  readonly shasum: string;
  readonly size: number;
  readonly modified: Date;
}

export interface RegistryFolder {
  readonly dir: string | undefined;
  /** The versions of `name`, keyed by version; undefined when the folder has none. */
  versions(name: string): Promise<ReadonlyMap<string, RegistryEntry> | undefined>;
  /** Every package of the folder (name -> versions). */
  packages(): Promise<ReadonlyMap<string, ReadonlyMap<string, RegistryEntry>>>;
  /**
   * Runs `prepare(name)` before `versions(name)` reads the folder: `serve` packs the workspace
   * packages into it on first use. A failing `prepare` is the caller's to report; the folder is
   * read anyway.
   */
  setPrepare(prepare: ((name: string) => Promise<void>) | undefined): void;
}

export interface RegistryFolderOptions {
  /** Told about a tarball that cannot be read (once per file state); it is left out. */
  readonly onSkip?: (file: string, reason: string) => void;
}

/**
 * A folder of package tarballs (`npm pack` output) read as a registry. The folder is listed on
 * each call; a tarball is read and hashed once per (name, size, mtime), so a tarball added,
 * replaced or removed while the host runs is seen at the next request.
 * @example const folder = openRegistryFolder('.platform-host/registry'); await folder.versions('@platform/sdk');
 */
export function openRegistryFolder(
  dir: string | undefined,
  options: RegistryFolderOptions = {},
): RegistryFolder {
  const cache = new Map<string, { key: string; entry: RegistryEntry | undefined }>();
  let prepare: ((name: string) => Promise<void>) | undefined;

  async function packages(): Promise<Map<string, Map<string, RegistryEntry>>> {
    const result = new Map<string, Map<string, RegistryEntry>>();
    if (dir === undefined) return result;
    let names: string[];
    try {
      names = (await readdir(dir)).filter((name) => name.endsWith('.tgz')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return result;
      throw error;
    }
    const seen = new Set<string>();
    for (const name of names) {
      const file = join(dir, name);
      seen.add(file);
      const entry = await load(file);
      if (entry === undefined || !entry.name.startsWith(`${REGISTRY_SCOPE}/`)) continue;
      const versions = result.get(entry.name) ?? new Map<string, RegistryEntry>();
      // Two files of one version: the first by file name wins, the same on every request.
      if (!versions.has(entry.version)) versions.set(entry.version, entry);
      result.set(entry.name, versions);
    }
    for (const file of cache.keys()) if (!seen.has(file)) cache.delete(file);
    return result;
  }

  async function load(file: string): Promise<RegistryEntry | undefined> {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(file);
    } catch {
      return undefined;
    }
    if (!info.isFile()) return undefined;
    const key = `${info.size}:${info.mtimeMs}`;
    const cached = cache.get(file);
    if (cached?.key === key) return cached.entry;
    let entry: RegistryEntry | undefined;
    try {
      const bytes = await readFile(file);
      const manifest = readPackageJson(bytes);
      const { name, version } = manifest;
      if (typeof name !== 'string' || typeof version !== 'string' || name === '' || version === '') {
        throw new TarballError('its package.json lacks a name or a version');
      }
      // npm installs semver versions only; the registry sorts and tags by them.
      if (parseVersion(version) === undefined) {
        throw new TarballError(`its package.json version "${version.slice(0, 100)}" is not a semver version`);
      }
      entry = {
        name,
        version,
        manifest,
        file,
        integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
        shasum: createHash('sha1').update(bytes).digest('hex'),
        size: bytes.length,
        modified: info.mtime,
      };
    } catch (error) {
      if (!(error instanceof TarballError)) throw error;
      options.onSkip?.(file, error.message);
    }
    cache.set(file, { key, entry });
    return entry;
  }

  return {
    dir,
    packages,
    async versions(name) {
      await prepare?.(name).catch(() => {});
      return (await packages()).get(name);
    },
    setPrepare(next) {
      prepare = next;
    },
  };
}
