import type { VersionStatus, VersionView } from '@platform/wire';
import type { Review } from '../gate/review.js';
import {
  DecisionError,
  findVersion,
  listVersionsByStatus,
  promoteVersion,
  rejectVersion,
  rollbackIntegration,
} from '../store/versions.js';
import { type DataOptions, dataOptionsFrom, withHost } from './_openHost.js';
import { adminCommand } from './adminCommands.js';
import { CliError } from './CliError.js';
import type { Command } from './Command.js';
import { oneOf, requiredString } from './parseArgs.js';

const STATUSES = ['gated', 'dev', 'rejected', 'checking', 'submitted'] as const;

// A refused decision changes nothing and says why.
async function decided<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DecisionError) {
      throw new CliError(
        error.code === 'version_not_found' ? 'not_found' : 'conflict',
        error.message,
        error.hint,
      );
    }
    throw error;
  }
}

/** Versions with a status (default `gated`: waiting for review), each with its review. */
export async function adminListVersions(
  options: DataOptions & { status: VersionStatus },
): Promise<{ versions: (VersionView & { review: Review | null })[] }> {
  return withHost(options, 'admin', async (host) => ({
    versions: await listVersionsByStatus(host.db, options.status),
  }));
}

export async function adminReviewVersion(options: DataOptions & { versionId: string }) {
  return withHost(options, 'admin', async (host) => {
    const detail = await findVersion(host.db, options.versionId);
    if (detail === undefined) {
      throw new CliError(
        'not_found',
        `No version ${options.versionId}.`,
        'List versions waiting for review with `platform-host admin version list`.',
      );
    }
    return { version: detail.version, review: detail.review, findings: detail.findings };
  });
}

export async function adminPromoteVersion(options: DataOptions & { versionId: string }) {
  return withHost(options, 'admin', (host) =>
    decided(() =>
      host.db.transaction((tx) =>
        promoteVersion(tx, { versionId: options.versionId, userId: null, now: host.services.now() }),
      ),
    ),
  );
}

export async function adminRejectVersion(options: DataOptions & { versionId: string; reason: string }) {
  return withHost(options, 'admin', (host) =>
    decided(() =>
      host.db.transaction((tx) =>
        rejectVersion(tx, {
          versionId: options.versionId,
          userId: null,
          reason: options.reason,
          now: host.services.now(),
        }),
      ),
    ),
  );
}

export async function adminRollback(options: DataOptions & { slug: string }) {
  return withHost(options, 'admin', (host) =>
    decided(() =>
      host.db.transaction((tx) =>
        rollbackIntegration(tx, { slug: options.slug, userId: null, now: host.services.now() }),
      ),
    ),
  );
}

/** One review as lines: what widened against the live version. */
export function formatReview(review: Review | null): string[] {
  if (review === null) return ['  (no review: the gate has not passed it)'];
  const lines = [
    `  against: ${review.againstVersion === null ? 'nothing live yet' : `v${review.againstVersion}`}`,
  ];
  const list = (label: string, added: readonly string[], removed: readonly string[]) => {
    if (added.length > 0) lines.push(`  ${label} added: ${added.join(', ')}`);
    if (removed.length > 0) lines.push(`  ${label} removed: ${removed.join(', ')}`);
  };
  list('egress', review.egress.added, review.egress.removed);
  list('OAuth scopes', review.oauthScopes.added, review.oauthScopes.removed);
  for (const tool of review.tools) {
    lines.push(
      tool.change === 'added'
        ? `  tool added: ${tool.name}`
        : `  tool ${tool.name}: ${tool.change} ${tool.from} -> ${tool.to}`,
    );
  }
  for (const item of review.storage) {
    lines.push(
      item.change === 'removed'
        ? `  storage ${item.scope}/${item.key} removed (stored data is stranded)`
        : `  storage ${item.scope}/${item.key} changed shape (stored data may no longer read)`,
    );
  }
  if (!review.widens) lines.push('  nothing widened');
  return lines;
}

const versionLine = (version: VersionView) =>
  `${version.id}  ${version.slug} v${version.number}  ${version.status}${version.live ? ' (live)' : ''}  source ${version.source}`;

const str = { type: 'string' } as const;

export const adminVersionCommands: readonly Command[] = [
  adminCommand(
    'version list',
    'List versions waiting for review (or with another status), with what each widens',
    ['[--status gated|dev|rejected|checking|submitted]'],
    { status: str },
    async (command, args, io) => {
      const status = args.values.status === undefined ? 'gated' : oneOf(command, args, 'status', STATUSES);
      const result = await adminListVersions({
        ...dataOptionsFrom(args, io),
        status: status as VersionStatus,
      });
      const text =
        result.versions.length === 0
          ? `no ${status} versions`
          : result.versions
              .flatMap((version) => [versionLine(version), ...formatReview(version.review)])
              .join('\n');
      return { data: result, text };
    },
  ),
  adminCommand(
    'version review',
    'Show what a version widens against the live version, and its findings',
    ['<version-id>'],
    {},
    async (_command, args, io) => {
      const result = await adminReviewVersion({
        ...dataOptionsFrom(args, io),
        versionId: args.positionals[0]!,
      });
      const findings = result.findings.map(
        (finding) => `  ${finding.severity} ${finding.code}: ${finding.message}`,
      );
      return {
        data: result,
        text: [versionLine(result.version), ...formatReview(result.review), ...findings].join('\n'),
      };
    },
    { min: 1, max: 1 },
  ),
  adminCommand(
    'version promote',
    'Make a gated version live for every account of its integration',
    ['<version-id>'],
    {},
    async (_command, args, io) => {
      const version = await adminPromoteVersion({
        ...dataOptionsFrom(args, io),
        versionId: args.positionals[0]!,
      });
      return { data: { version }, text: `promoted ${version.slug} v${version.number}: live now` };
    },
    { min: 1, max: 1 },
  ),
  adminCommand(
    'version reject',
    'Refuse a gated version after review',
    ['<version-id> --reason R'],
    { reason: str },
    async (command, args, io) => {
      const version = await adminRejectVersion({
        ...dataOptionsFrom(args, io),
        versionId: args.positionals[0]!,
        reason: requiredString(command, args, 'reason'),
      });
      return { data: { version }, text: `rejected ${version.slug} v${version.number}` };
    },
    { min: 1, max: 1 },
  ),
  adminCommand(
    'integration rollback',
    'Put back the version that was live before the current one',
    ['<integration-slug>'],
    {},
    async (_command, args, io) => {
      const result = await adminRollback({ ...dataOptionsFrom(args, io), slug: args.positionals[0]! });
      return {
        data: result,
        text: `rolled back ${result.from.slug}: v${result.from.number} -> v${result.to.number} (live now)`,
      };
    },
    { min: 1, max: 1 },
  ),
];
