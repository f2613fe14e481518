/** One seat of the signed-in user: a source and the role held on it (`GET /api/platform/sources`). */
export interface SourceSeat {
  readonly slug: string;
  readonly name: string;
  /** `development` sources make passing versions live at once (`dev`); others gate them (`gated`). */
  readonly stage: string;
  readonly role: string;
}

/** A gate check of one version, in the gate's order. */
export interface CheckView {
  readonly name: string;
  readonly status: 'pending' | 'running' | 'passed' | 'failed' | 'skipped';
  readonly ms?: number;
}

/** Where a version is: `submitted` -> `checking` -> `rejected` | `dev` | `gated`. */
export type VersionStatus = 'submitted' | 'checking' | 'rejected' | 'dev' | 'gated';

/** One version of an integration on a source, as the host shows it. */
export interface VersionView {
  readonly id: string;
  readonly slug: string;
  readonly number: number;
  readonly source: string;
  readonly status: VersionStatus;
  readonly live: boolean;
  readonly createdAt: string;
  readonly verdictAt: string | null;
  readonly checks: readonly CheckView[];
}

/** Something the host gate found in a version. */
export interface HostFinding {
  readonly check: string;
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
  readonly hint?: string;
}

/** The statuses that are a verdict: the gate is done with the version. */
export const VERDICTS: ReadonlySet<VersionStatus> = new Set(['rejected', 'dev', 'gated']);

/** The signed-in user as `GET /api/platform/me` and the device flow name them. */
export interface HostUser {
  readonly id?: string;
  readonly email: string;
  readonly name?: string | null;
}
