import {
  type AdminVersionsResponse,
  rejectRequestSchema,
  type SourcesResponse,
  type SourceVersionsResponse,
  type UploadResponse,
  type VersionDetailResponse,
  type VersionLogsResponse,
  type VersionReviewResponse,
} from '@platform/wire';
import { type Context, Hono } from 'hono';
import { ArchiveError, inspectArchive } from '../gate/index.js';
import type { HostServices } from '../HostServices.js';
import { createSubmission } from '../publish/submissions.js';
import { securityEvent } from '../security/securityEvent.js';
import { findSource, type SeatRole, SlugTakenError, type Source } from '../store/integrations.js';
import type { User } from '../store/users.js';
import {
  DecisionError,
  findVersion,
  listSourceVersions,
  listVersionsByStatus,
  promoteVersion,
  rejectVersion,
  rollbackIntegration,
} from '../store/versions.js';
import { checkStateChange, requireCliUser } from './_auth.js';
import { bodyLimit } from './_bodyLimit.js';
import { RouteError, requestIdOf } from './_errors.js';
import { parsedBody } from './_jsonBody.js';
import { limitPerMinute } from './_limitPerMinute.js';

interface Seat {
  readonly slug: string;
  readonly name: string;
  readonly stage: string;
  readonly role: SeatRole;
}

async function seatsOf(services: HostServices, userId: string): Promise<Seat[]> {
  const { rows } = await services.db.query(
    `SELECT s.slug, s.name, s.stage, seats.role FROM seats JOIN sources s ON s.id = seats.source_id
     WHERE seats.user_id = $1 ORDER BY s.slug`,
    [userId],
  );
  return rows as unknown as Seat[];
}

const REJECT_USAGE = '{ "reason": "why the version is rejected" }';

/**
 * The 403 for a user without the seat a source needs, listing the seats they hold. `needs`
 * undefined: no seat at all, said the same way whether or not the source exists.
 */
async function noSeat(
  services: HostServices,
  user: User,
  slug: string,
  needs: string | undefined,
): Promise<RouteError> {
  const seats = await seatsOf(services, user.id);
  const held =
    seats.length === 0
      ? 'You hold no seat on any source.'
      : `Your seats: ${seats.map((seat) => `${seat.slug} (${seat.role})`).join(', ')}.`;
  const message =
    needs === undefined
      ? `You hold no seat on a source "${slug}".`
      : `You need ${needs} seat on source "${slug}".`;
  return new RouteError(403, 'forbidden', message, {
    hint: `${held} Ask an owner of "${slug}" for a publisher seat, or pick a source you publish to with \`platform use <source-slug>\`.`,
    seats: seats.map(({ slug, role }) => ({ source: slug, role })),
  });
}

/**
 * The source and the user's role on it. A user without a seat gets the same 403 whether or not the
 * source exists, so a source's existence is not told to other tenants.
 */
async function seatedSource(
  services: HostServices,
  user: User,
  slug: string,
): Promise<{ source: Source; role: SeatRole }> {
  const source = await findSource(services.db, slug);
  const role = source === undefined ? undefined : await roleOn(services, user, source.id);
  if (source === undefined || role === undefined) throw await noSeat(services, user, slug, undefined);
  return { source, role };
}

/** The user's role on a source (platform admins read every source as viewers). */
async function roleOn(services: HostServices, user: User, sourceId: string): Promise<SeatRole | undefined> {
  const { rows } = await services.db.query('SELECT role FROM seats WHERE source_id = $1 AND user_id = $2', [
    sourceId,
    user.id,
  ]);
  const role = rows[0]?.role as SeatRole | undefined;
  return role ?? (user.isPlatformAdmin ? 'viewer' : undefined);
}

function requireAdmin(user: User): void {
  if (!user.isPlatformAdmin) {
    throw new RouteError(
      403,
      'forbidden',
      'Only a platform admin reviews, promotes and rolls back versions.',
      {
        hint: 'Ask a platform admin of this host to review the version.',
      },
    );
  }
}

/**
 * `/api/platform/...` for the CLI: the user's sources and seats, uploads of packed projects (a
 * submission the gate checks), versions with their checks, findings and logs, and the admin's
 * review, promotion, rejection and rollback.
 */
export function versionRoutes(services: HostServices): Hono {
  const app = new Hono();

  app.get('/sources', async (c) => {
    const user = await requireCliUser(services, c, 'read');
    return c.json({
      ok: true,
      data: { sources: await seatsOf(services, user.id) } satisfies SourcesResponse,
    });
  });

  app.post(
    '/sources/:source/versions',
    bodyLimit({
      maxSize: services.limits.publishArchiveBytes,
      onError: () => {
        throw new RouteError(
          413,
          'payload_too_large',
          `The packed project is larger than ${Math.round(services.limits.publishArchiveBytes / 1024 / 1024)} MiB.`,
          {
            hint: 'Leave build output and large assets out of the project folder (publish packs sources only), then publish again.',
          },
        );
      },
    }),
    async (c) => {
      const user = await requireCliUser(services, c, 'publish');
      checkStateChange(services, c, { requireJson: false });
      const { source, role } = await seatedSource(services, user, c.req.param('source'));
      if (role !== 'owner' && role !== 'publisher')
        throw await noSeat(services, user, source.slug, 'a publisher or owner');
      // Each upload is inspected and then gated: bounded per seat, across instances.
      const limit = services.limits.uploadsPerSeatPerMinute;
      await limitPerMinute(services, c, {
        bucket: { key: `uploads:${source.id}:${user.id}`, limit, name: 'uploads_per_seat' },
        fields: { source: source.slug, userId: user.id },
        event: 'too many uploads to one source by one user',
        message: `More than ${limit} uploads to source "${source.slug}" in a minute.`,
        hint: (seconds) => `Wait ${seconds} seconds, then publish again.`,
      });
      if (!/^application\/(gzip|x-gzip|octet-stream)\b/i.test(c.req.header('content-type') ?? '')) {
        throw new RouteError(415, 'unsupported_media_type', 'Send the packed project as the body.', {
          hint: 'Upload with Content-Type: application/gzip (platform publish does).',
        });
      }
      const archive = Buffer.from(await c.req.arrayBuffer());
      let slugs: string[];
      try {
        slugs = (await inspectArchive(archive)).manifest.integrations.map((integration) => integration.slug);
      } catch (error) {
        if (!(error instanceof ArchiveError)) throw error;
        securityEvent(
          services.logger,
          'publish_refused',
          { source: source.slug, userId: user.id, reason: error.message, requestId: requestIdOf(c) },
          'upload refused',
        );
        throw new RouteError(
          error.reason === 'too_large' ? 413 : 400,
          error.reason === 'too_large' ? 'payload_too_large' : 'invalid_archive',
          error.message,
          {
            hint: error.hint,
            ...(error.file === undefined ? {} : { file: error.file }),
          },
        );
      }
      try {
        const created = await services.db.transaction((tx) =>
          createSubmission(tx, { source, userId: user.id, archive, slugs, now: services.now() }),
        );
        // Its gate job is committed: this instance's worker claims it now, not at its next poll.
        services.jobsQueued.notify();
        return c.json(
          {
            ok: true,
            data: {
              submission: { id: created.submissionId },
              source: source.slug,
              versions: created.versions.map((version) => ({ ...version, status: 'submitted' as const })),
            } satisfies UploadResponse,
          },
          202,
        );
      } catch (error) {
        if (!(error instanceof SlugTakenError)) throw error;
        // The owning source is named only to someone who holds a seat on it.
        const owner = await findSource(services.db, error.ownerSource);
        const seated = owner !== undefined && (await roleOn(services, user, owner.id)) !== undefined;
        throw new RouteError(
          409,
          'slug_taken',
          seated
            ? `${error.message} A source cannot publish a slug another source owns.`
            : `Integration "${error.slug}" belongs to another source. A source cannot publish a slug another source owns.`,
          {
            hint: seated
              ? `Publish "${error.slug}" from source "${error.ownerSource}", or pick another slug in the definition and platform.json.`
              : 'Pick another slug in the definition and platform.json.',
          },
        );
      }
    },
  );

  app.get('/sources/:source/versions', async (c) => {
    const user = await requireCliUser(services, c, 'read');
    const { source } = await seatedSource(services, user, c.req.param('source'));
    const all = ['1', 'true'].includes(c.req.query('all') ?? '');
    return c.json({
      ok: true,
      data: {
        source: source.slug,
        versions: await listSourceVersions(services.db, source.id, { all }),
      } satisfies SourceVersionsResponse,
    });
  });

  async function readableVersion(c: Context) {
    const user = await requireCliUser(services, c, 'read');
    const id = c.req.param('id') ?? '';
    const detail = await findVersion(services.db, id);
    const notFound = new RouteError(404, 'version_not_found', `No version ${id}.`, {
      hint: 'List your versions with `platform status --all`.',
    });
    if (detail === undefined) throw notFound;
    // A version of a source the user holds no seat on is not theirs to see: the same 404.
    if ((await roleOn(services, user, detail.sourceId)) === undefined) throw notFound;
    return detail;
  }

  app.get('/versions/:id', async (c) => {
    const detail = await readableVersion(c);
    return c.json({
      ok: true,
      data: {
        version: detail.version,
        findings: [...detail.findings],
        review: detail.review,
        decisionReason: detail.decisionReason,
      } satisfies VersionDetailResponse,
    });
  });

  app.get('/versions/:id/logs', async (c) => {
    const detail = await readableVersion(c);
    return c.json({
      ok: true,
      data: {
        checks: detail.checks.map(({ name, status, log }) => ({ name, status, log: log ?? '' })),
      } satisfies VersionLogsResponse,
    });
  });

  // The admin's review queue and decisions.
  app.get('/admin/versions', async (c) => {
    const user = await requireCliUser(services, c, 'read');
    requireAdmin(user);
    const status = c.req.query('status') ?? 'gated';
    if (!['gated', 'dev', 'rejected', 'checking', 'submitted'].includes(status)) {
      throw new RouteError(400, 'invalid_request', `Unknown status "${status}".`, {
        hint: 'Use status=gated (the default), dev, rejected, checking or submitted.',
      });
    }
    return c.json({
      ok: true,
      data: {
        versions: await listVersionsByStatus(services.db, status as 'gated'),
      } satisfies AdminVersionsResponse,
    });
  });

  app.get('/admin/versions/:id/review', async (c) => {
    const user = await requireCliUser(services, c, 'read');
    requireAdmin(user);
    const detail = await findVersion(services.db, c.req.param('id'));
    if (detail === undefined) {
      throw new RouteError(404, 'version_not_found', `No version ${c.req.param('id')}.`, {
        hint: 'List versions waiting for review with GET /api/platform/admin/versions.',
      });
    }
    return c.json({
      ok: true,
      data: {
        version: detail.version,
        review: detail.review,
        findings: [...detail.findings],
      } satisfies VersionReviewResponse,
    });
  });

  const decide =
    <T>(run: (user: User) => Promise<T>) =>
    async (c: Context) => {
      const user = await requireCliUser(services, c, 'publish');
      checkStateChange(services, c, { requireJson: false });
      requireAdmin(user);
      try {
        return c.json({ ok: true, data: await run(user) });
      } catch (error) {
        if (!(error instanceof DecisionError)) throw error;
        throw new RouteError(error.code === 'version_not_found' ? 404 : 409, error.code, error.message, {
          hint: error.hint,
        });
      }
    };

  app.post('/admin/versions/:id/promote', (c) =>
    decide(async (user) => ({
      version: await services.db.transaction((tx) =>
        promoteVersion(tx, { versionId: c.req.param('id'), userId: user.id, now: services.now() }),
      ),
    }))(c),
  );

  app.post('/admin/versions/:id/reject', async (c) => {
    const reason = (
      await parsedBody(services.limits, c, rejectRequestSchema, REJECT_USAGE, { optional: true })
    ).reason.trim();
    if (reason === '') {
      throw new RouteError(400, 'invalid_input', 'Say why the version is rejected.', {
        hint: 'Send { "reason": "..." } as JSON; the publisher sees it in `platform status --findings`.',
      });
    }
    return decide(async (user) => ({
      version: await services.db.transaction((tx) =>
        rejectVersion(tx, { versionId: c.req.param('id'), userId: user.id, reason, now: services.now() }),
      ),
    }))(c);
  });

  app.post('/admin/integrations/:slug/rollback', (c) =>
    decide((user) =>
      services.db.transaction((tx) =>
        rollbackIntegration(tx, { slug: c.req.param('slug'), userId: user.id, now: services.now() }),
      ),
    )(c),
  );

  return app;
}
