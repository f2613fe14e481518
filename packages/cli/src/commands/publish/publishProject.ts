import { uploadResponseSchema } from '@platform/wire';
import { type Progress, silentProgress } from '../../cli/progress.js';
import { createByteProgress, formatBytes } from '../../host/byteProgress.js';
import { createHostClient } from '../../host/createHostClient.js';
import type { HostIO } from '../../host/hostIO.js';
import { packProject } from '../../host/packProject.js';
import { resolveSession } from '../../host/resolveSession.js';
import { resolveTargetSource, type TargetSource } from '../../host/resolveTargetSource.js';
import { readManifest } from '../../project/readManifest.js';
import { checkSchemaSkew, schemaSkewError } from '../../project/schemaSkew.js';
import type { Finding } from '../validate/finding.js';
import { validateProject } from '../validate/validateProject.js';

/** What `platform publish` needs. */
export interface PublishOptions {
  /** The project root (the folder holding platform.json). */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly host?: string;
  /** The target source; else the `platform use` selection, else platform.json's `source`. */
  readonly source?: string;
  readonly io: HostIO;
  readonly progress?: Progress;
  /** Draw an upload bar on `io.stderr` (a terminal, not --json). */
  readonly uploadBar?: boolean;
}

/** One version a submission created, as the host answered. */
export interface SubmittedVersion {
  readonly id: string;
  readonly slug: string;
  readonly number: number;
  readonly status: string;
}

/**
 * What `platform publish` did (`data` of its JSON envelope). When the local gate refused
 * (`summary.errors > 0`), nothing was packed or uploaded: `archive` and `submission` are `null`.
 */
export interface PublishReport {
  readonly project: string;
  readonly host: string;
  readonly source: TargetSource;
  /** The local gate's findings: validate's, with `project.host-compiler-rules` as an error. */
  readonly findings: readonly Finding[];
  readonly summary: { readonly errors: number; readonly warnings: number };
  /** The uploaded archive, or `null` when the local gate refused. */
  readonly archive: {
    readonly bytes: number;
    readonly files: number;
    readonly omitted: readonly { readonly path: string; readonly reason: string }[];
  } | null;
  readonly submission: { readonly id: string } | null;
  readonly versions: readonly SubmittedVersion[];
  /** The command that follows the gate's checks. */
  readonly next: string;
}

// validate's warning, an error here: the host gate compiles under noUncheckedIndexedAccess.
const PUBLISH_ERRORS = new Set<Finding['id']>(['project.host-compiler-rules']);

/**
 * Publishes a project: refuses on schema skew before loading anything (`precondition_failed`),
 * stops on any finding `validate` reports as an error or `project.host-compiler-rules` (counted in
 * `summary.errors`, nothing uploaded), else packs the project (see {@link packProject}) and uploads
 * it to `POST /api/platform/sources/:source/versions`, answering the versions submitted to the gate.
 */
export async function publishProject(options: PublishOptions): Promise<PublishReport> {
  const { cwd, env } = options;
  const progress = options.progress ?? silentProgress;
  const { manifest } = readManifest(cwd);
  const skew = checkSchemaSkew(cwd);
  if (skew.skewed) throw schemaSkewError(skew, cwd, env);

  const { origin, session } = resolveSession(env, options.host);
  const source = resolveTargetSource(options.source, session, manifest.source);
  const next = `platform status --watch${source.from === 'option' ? ` --source ${source.slug}` : ''}${options.host === undefined ? '' : ` --host ${origin}`}`;

  const validation = await validateProject({ cwd, env, progress });
  const findings = validation.findings.map((item) =>
    PUBLISH_ERRORS.has(item.id) ? { ...item, severity: 'error' as const } : item,
  );
  const summary = {
    errors: findings.filter((item) => item.severity === 'error').length,
    warnings: findings.filter((item) => item.severity === 'warning').length,
  };
  const base = { project: cwd, host: origin, source, findings, summary, next };
  // The local gate refused: the command turns this report into `gate_failed`.
  if (summary.errors > 0) return { ...base, archive: null, submission: null, versions: [] };

  const packed = await packProject(cwd);
  const client = createHostClient(origin, session.token);
  const path = `/api/platform/sources/${encodeURIComponent(source.slug)}/versions`;
  const label = `Uploading ${formatBytes(packed.archive.byteLength)} to ${source.slug} on ${origin}`;
  let answer: { submission: { id: string }; versions: SubmittedVersion[] };
  if (options.uploadBar === true) {
    const bar = createByteProgress(options.io.stderr, 'Uploading');
    try {
      answer = await client.upload(path, packed.archive, uploadResponseSchema, bar.update);
    } finally {
      bar.done();
    }
  } else {
    const step = progress.start(label);
    try {
      answer = await client.upload(path, packed.archive, uploadResponseSchema);
    } finally {
      step.stop();
    }
  }
  return {
    ...base,
    archive: { bytes: packed.archive.byteLength, files: packed.files.length, omitted: packed.omitted },
    submission: answer.submission,
    versions: answer.versions,
  };
}
