// The host's views the CLI reads are the wire contract's (@platform/wire); re-exported under the
// names the CLI has always used.
export {
  type CheckView,
  type Finding as HostFinding,
  type SourceSeat,
  VERDICTS,
  type VersionStatus,
} from '@platform/wire';

import type { VersionView as WireVersionView } from '@platform/wire';

/** One version of an integration on a source: the fields of the host's view the CLI reads. */
export type VersionView = Omit<WireVersionView, 'submissionId' | 'decision'>;

/** The signed-in user as `GET /api/platform/me` and the device flow name them (and a session keeps). */
export interface HostUser {
  readonly id?: string;
  readonly email: string;
  readonly name?: string | null;
}
