import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sourceVersionsResponseSchema, versionDetailResponseSchema } from '@platform/wire';
import { createHostClient, type HostClient } from '../../host/createHostClient.js';
import type { HostIO } from '../../host/hostIO.js';
import type { HostFinding, VersionView } from '../../host/hostTypes.js';
import { resolveSession } from '../../host/resolveSession.js';
import { resolveTargetSource, type TargetSource } from '../../host/resolveTargetSource.js';
import { MANIFEST_FILE, readManifest } from '../../project/readManifest.js';

/** What `platform status` needs. */
export interface StatusOptions {
  /** A project folder whose platform.json may name the source; not required. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly host?: string;
  readonly source?: string;
  /** Every version of the source, not only the latest submission's. */
  readonly all?: boolean;
  /** Fetch each version's findings. */
  readonly findings?: boolean;
  /** Poll until every version of the latest submission has a verdict. */
  readonly watch?: boolean;
  /** Where `--watch` writes its live check lines; none in JSON mode. */
  readonly io?: HostIO;
  /** How often `--watch` polls (default 1 s). */
  readonly pollMs?: number;
}

/** A version as `status` reports it: the host's view, with its findings when they were fetched. */
export type VersionStatusView = VersionView & { readonly findings?: readonly HostFinding[] };

/** The versions of a source (`data` of `platform status --json`). */
export interface StatusReport {
  readonly host: string;
  readonly source: TargetSource;
  /** `latest`: the latest submission's versions; `all`: every version, newest first. */
  readonly scope: 'latest' | 'all';
  readonly versions: readonly VersionStatusView[];
}

/** The host, credential and source `status` acts on. */
export interface StatusTarget {
  readonly client: HostClient;
  readonly source: TargetSource;
}

/** Resolves the host session and the source (`--source` > `use` > platform.json, if there is one). */
export function resolveStatusTarget(options: StatusOptions): StatusTarget {
  const { origin, session } = resolveSession(options.env, options.host);
  const manifestSource = existsSync(join(options.cwd, MANIFEST_FILE))
    ? readManifest(options.cwd).manifest.source
    : undefined;
  return {
    client: createHostClient(origin, session.token),
    source: resolveTargetSource(options.source, session, manifestSource),
  };
}

/** `GET /api/platform/sources/:source/versions[?all=1]`. */
export async function fetchVersions(
  client: HostClient,
  source: string,
  all: boolean,
): Promise<readonly VersionView[]> {
  const path = `/api/platform/sources/${encodeURIComponent(source)}/versions${all ? '?all=1' : ''}`;
  return (await client.request('GET', path, sourceVersionsResponseSchema.pick({ versions: true }))).versions;
}

/** `GET /api/platform/versions/:id`: the version's findings. */
export async function fetchFindings(client: HostClient, id: string): Promise<readonly HostFinding[]> {
  const data = await client.request(
    'GET',
    `/api/platform/versions/${encodeURIComponent(id)}`,
    versionDetailResponseSchema.pick({ findings: true }),
  );
  return data.findings;
}

/** The versions of the target source, each with its verdict, and its findings when asked for. */
export async function readStatus(options: StatusOptions): Promise<StatusReport> {
  const { client, source } = resolveStatusTarget(options);
  const versions = await fetchVersions(client, source.slug, options.all === true);
  return {
    host: client.origin,
    source,
    scope: options.all === true ? 'all' : 'latest',
    versions:
      options.findings === true
        ? await Promise.all(
            versions.map(async (version) => ({
              ...version,
              findings: await fetchFindings(client, version.id),
            })),
          )
        : versions,
  };
}
