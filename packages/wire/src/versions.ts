import { z } from 'zod';

// The publish pipeline's routes under `/api/platform/`: seats, uploads, versions with their checks
// and findings, and the admin's review and decisions.

/** One seat of the signed-in user: a source and the role held on it (`GET /api/platform/sources`). */
export const sourceSeatSchema = z.object({
  slug: z.string(),
  name: z.string(),
  /** `development` sources make passing versions live at once (`dev`); others gate them (`gated`). */
  stage: z.string(),
  role: z.string(),
});
export type SourceSeat = z.output<typeof sourceSeatSchema>;

/** `data` of `GET /api/platform/sources`. */
export const sourcesResponseSchema = z.object({ sources: z.array(sourceSeatSchema) });
export type SourcesResponse = z.output<typeof sourcesResponseSchema>;

/** Where a version is: `submitted` -> `checking` -> `rejected` | `dev` | `gated`. */
export const VERSION_STATUSES = ['submitted', 'checking', 'rejected', 'dev', 'gated'] as const;
export const versionStatusSchema = z.enum(VERSION_STATUSES);
export type VersionStatus = z.output<typeof versionStatusSchema>;

/** The statuses that are a verdict: the gate is done with the version. */
export const VERDICTS: ReadonlySet<VersionStatus> = new Set(['rejected', 'dev', 'gated']);

/** Where one gate check of a version is; `pending` until the gate reaches it. */
export const checkStatusSchema = z.enum(['pending', 'running', 'passed', 'failed', 'skipped']);
export type CheckStatus = z.output<typeof checkStatusSchema>;

/** A gate check of one version, in the gate's order. */
export const checkViewSchema = z.object({
  name: z.string(),
  status: checkStatusSchema,
  ms: z.number().exactOptional(),
});
export type CheckView = z.output<typeof checkViewSchema>;

/** One version of an integration on a source, as the CLI and the admin see it. */
export const versionViewSchema = z.object({
  id: z.string(),
  slug: z.string(),
  number: z.number(),
  source: z.string(),
  status: versionStatusSchema,
  live: z.boolean(),
  createdAt: z.string(),
  verdictAt: z.string().nullable(),
  submissionId: z.string().nullable(),
  decision: z.enum(['promoted', 'rejected', 'rolled_back']).nullable(),
  checks: z.array(checkViewSchema),
});
export type VersionView = z.output<typeof versionViewSchema>;

/**
 * One problem the gate (or the host about the gate: `gate`, `bundle`) found in a version: where it
 * is and what to do about it. `code` is stable: `TS2322`, `project.host-compiler-rules`...
 */
export const findingSchema = z.object({
  check: z.string(),
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  message: z.string(),
  /** Relative to the project root. */
  file: z.string().exactOptional(),
  line: z.number().exactOptional(),
  /** An imperative sentence. */
  hint: z.string().exactOptional(),
});
export type Finding = z.output<typeof findingSchema>;

const addedRemoved = z.object({ added: z.array(z.string()), removed: z.array(z.string()) });

/** What a gated version widens against the live version: what an admin reviews before promoting. */
export const reviewSchema = z.object({
  /** The live version compared against (none: everything is new). */
  againstVersion: z.number().nullable(),
  egress: addedRemoved,
  oauthScopes: addedRemoved,
  tools: z.array(
    z.object({
      name: z.string(),
      change: z.enum(['added', 'effect', 'sensitivity']),
      from: z.string().exactOptional(),
      to: z.string().exactOptional(),
    }),
  ),
  storage: z.array(
    z.object({ scope: z.enum(['account', 'user']), key: z.string(), change: z.enum(['removed', 'changed']) }),
  ),
  widens: z.boolean(),
});
export type Review = z.output<typeof reviewSchema>;

/** `data` of `POST /api/platform/sources/:source/versions` (202): the submission and its versions. */
export const uploadResponseSchema = z.object({
  submission: z.object({ id: z.string() }),
  source: z.string(),
  versions: z.array(
    z.object({ id: z.string(), slug: z.string(), number: z.number(), status: z.literal('submitted') }),
  ),
});
export type UploadResponse = z.output<typeof uploadResponseSchema>;

/** `data` of `GET /api/platform/sources/:source/versions[?all=1]`. */
export const sourceVersionsResponseSchema = z.object({
  source: z.string(),
  versions: z.array(versionViewSchema),
});
export type SourceVersionsResponse = z.output<typeof sourceVersionsResponseSchema>;

/** `data` of `GET /api/platform/versions/:id`. */
export const versionDetailResponseSchema = z.object({
  version: versionViewSchema,
  findings: z.array(findingSchema),
  review: reviewSchema.nullable(),
  decisionReason: z.string().nullable(),
});
export type VersionDetailResponse = z.output<typeof versionDetailResponseSchema>;

/** `data` of `GET /api/platform/versions/:id/logs`: each check's log tail. */
export const versionLogsResponseSchema = z.object({
  checks: z.array(z.object({ name: z.string(), status: checkStatusSchema, log: z.string() })),
});
export type VersionLogsResponse = z.output<typeof versionLogsResponseSchema>;

/** `data` of `GET /api/platform/admin/versions[?status=]`: the review queue, oldest first. */
export const adminVersionsResponseSchema = z.object({
  versions: z.array(versionViewSchema.extend({ review: reviewSchema.nullable() })),
});
export type AdminVersionsResponse = z.output<typeof adminVersionsResponseSchema>;

/** `data` of `GET /api/platform/admin/versions/:id/review`. */
export const versionReviewResponseSchema = z.object({
  version: versionViewSchema,
  review: reviewSchema.nullable(),
  findings: z.array(findingSchema),
});
export type VersionReviewResponse = z.output<typeof versionReviewResponseSchema>;

/** `data` of `POST /api/platform/admin/versions/:id/promote` and `.../reject`. */
export const versionDecisionResponseSchema = z.object({ version: versionViewSchema });
export type VersionDecisionResponse = z.output<typeof versionDecisionResponseSchema>;

/** Body of `POST /api/platform/admin/versions/:id/reject`: why (the publisher sees it). */
export const rejectRequestSchema = z.object({ reason: z.string() });
export type RejectRequest = z.output<typeof rejectRequestSchema>;

/** `data` of `POST /api/platform/admin/integrations/:slug/rollback`: the live version before and after. */
export const rollbackResponseSchema = z.object({ from: versionViewSchema, to: versionViewSchema });
export type RollbackResponse = z.output<typeof rollbackResponseSchema>;
