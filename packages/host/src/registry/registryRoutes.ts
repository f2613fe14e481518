import { readFile } from 'node:fs/promises';
import { compareVersions } from '@platform/integration-schema';
import { type Context, Hono } from 'hono';
import { REGISTRY_SCOPE, type RegistryEntry, type RegistryFolder } from './registryFolder.js';

/** Where the registry is mounted on the host. */
export const REGISTRY_PATH = '/registry';

export interface RegistryRoutesOptions {
  readonly folder: RegistryFolder;
  /** Tarball URLs start with it (read per request: a host learns its address once it listens); default: the request's origin. */
  readonly publicOrigin?: (() => string | undefined) | undefined;
}

/**
 * The npm registry protocol, read-only and anonymous, over a {@link RegistryFolder}, under
 * `/registry`: packuments (`GET /registry/@platform%2fsdk`, also `/registry/@platform/sdk`), one
 * version (`/registry/@platform/sdk/0.4.0` or a dist-tag) and tarballs
 * (`/registry/@platform/sdk/-/sdk-0.4.0.tgz`). HEAD works like GET; anything that writes is 405.
 * Errors are npm's `{ "error": "..." }` bodies, not the host's envelope: npm prints them.
 * @example app.route('/', registryRoutes({ folder: openRegistryFolder(dir) }));
 */
export function registryRoutes(options: RegistryRoutesOptions): Hono {
  const app = new Hono().basePath(REGISTRY_PATH);
  const origin = (c: Context) => (options.publicOrigin?.() ?? new URL(c.req.url).origin).replace(/\/+$/, '');

  app.all('/*', async (c) => {
    // Hono answers HEAD with this handler's GET response, body dropped.
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      return c.json({ error: 'Method not allowed: this registry is read-only' }, 405, { Allow: 'GET, HEAD' });
    }
    const target = parsePath(new URL(c.req.url).pathname.slice(REGISTRY_PATH.length));
    if (target === undefined) return notFound(c);
    const versions = await options.folder.versions(target.name);
    if (versions === undefined || versions.size === 0) return notFound(c);
    const base = `${origin(c)}${REGISTRY_PATH}`;

    if (target.kind === 'packument') return c.json(packument(target.name, versions, base));
    if (target.kind === 'version') {
      const latest = latestVersion(versions);
      const entry = versions.get(target.spec === 'latest' ? latest : target.spec);
      return entry === undefined ? notFound(c) : c.json(versionDocument(entry, base));
    }
    const entry = [...versions.values()].find((candidate) => tarballName(candidate) === target.file);
    if (entry === undefined) return notFound(c);
    let bytes: Buffer;
    try {
      bytes = await readFile(entry.file);
    } catch (error) {
      // Removed since the folder was listed.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return notFound(c);
      throw error;
    }
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(bytes.length),
    });
  });
  return app;
}

type Target =
  | { kind: 'packument'; name: string }
  | { kind: 'version'; name: string; spec: string }
  | { kind: 'tarball'; name: string; file: string };

/** `/@platform%2fsdk`, `/@platform/sdk`, `/@platform/sdk/0.4.0`, `/@platform/sdk/-/sdk-0.4.0.tgz`. */
function parsePath(path: string): Target | undefined {
  let decoded: string;
  try {
    decoded = path
      .split('/')
      .map((segment) => decodeURIComponent(segment))
      .join('/');
  } catch {
    return undefined;
  }
  const match = /^\/(@[^/]+\/[^/]+)(?:\/(-\/[^/]+|[^/]+))?\/?$/.exec(decoded);
  const name = match?.[1];
  if (name === undefined || !name.startsWith(`${REGISTRY_SCOPE}/`)) return undefined;
  const rest = match?.[2];
  if (rest === undefined) return { kind: 'packument', name };
  if (rest.startsWith('-/')) return { kind: 'tarball', name, file: rest.slice(2) };
  return { kind: 'version', name, spec: rest };
}

/** npm's tarball file name: the unscoped name, a dash, the version. */
function tarballName(entry: RegistryEntry): string {
  return `${entry.name.slice(entry.name.indexOf('/') + 1)}-${entry.version}.tgz`;
}

function versionDocument(entry: RegistryEntry, base: string): Record<string, unknown> {
  return {
    ...entry.manifest,
    _id: `${entry.name}@${entry.version}`,
    dist: {
      tarball: `${base}/${entry.name}/-/${tarballName(entry)}`,
      integrity: entry.integrity,
      shasum: entry.shasum,
    },
  };
}

/** The highest release, or the highest prerelease when there is no release. */
function latestVersion(versions: ReadonlyMap<string, RegistryEntry>): string {
  const sorted = [...versions.keys()].sort(compareVersions);
  const releases = sorted.filter((version) => !/^[^+]*-/.test(version));
  return (releases.at(-1) ?? sorted.at(-1)) as string;
}

function packument(
  name: string,
  versions: ReadonlyMap<string, RegistryEntry>,
  base: string,
): Record<string, unknown> {
  const entries = [...versions.values()].sort((a, b) => compareVersions(a.version, b.version));
  const times = entries.map((entry) => entry.modified.getTime());
  return {
    _id: name,
    name,
    'dist-tags': { latest: latestVersion(versions) },
    versions: Object.fromEntries(entries.map((entry) => [entry.version, versionDocument(entry, base)])),
    time: {
      created: new Date(Math.min(...times)).toISOString(),
      modified: new Date(Math.max(...times)).toISOString(),
      ...Object.fromEntries(entries.map((entry) => [entry.version, entry.modified.toISOString()])),
    },
  };
}

function notFound(c: Context): Response {
  return c.json({ error: 'Not found' }, 404);
}
