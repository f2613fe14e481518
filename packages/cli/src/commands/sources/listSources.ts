import { sourcesResponseSchema } from '@platform/wire';
import { createHostClient } from '../../host/createHostClient.js';
import type { SourceSeat } from '../../host/hostTypes.js';
import { resolveSession } from '../../host/resolveSession.js';

/** What `platform sources` needs. */
export interface SourcesOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly host?: string;
}

/** The seats of the signed-in user on a host (`data` of `platform sources --json`). */
export interface SourcesReport {
  readonly host: string;
  readonly user: string;
  /** The source `platform use` selected on this host, if any. */
  readonly selected: string | null;
  readonly sources: readonly (SourceSeat & { readonly selected: boolean })[];
}

/** Lists the sources where the signed-in user holds a seat, marking the selected one. */
export async function listSources(options: SourcesOptions): Promise<SourcesReport> {
  const { origin, session } = resolveSession(options.env, options.host);
  const seats = await fetchSeats(origin, session.token);
  const selected = session.source ?? null;
  return {
    host: origin,
    user: session.user.email,
    selected,
    sources: seats.map((seat) => ({ ...seat, selected: seat.slug === selected })),
  };
}

/** `GET /api/platform/sources`: the user's seats. */
export async function fetchSeats(origin: string, token: string): Promise<readonly SourceSeat[]> {
  const data = await createHostClient(origin, token).request(
    'GET',
    '/api/platform/sources',
    sourcesResponseSchema,
  );
  return data.sources;
}
