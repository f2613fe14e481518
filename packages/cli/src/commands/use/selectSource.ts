import { CliError } from '../../cli/CliError.js';
import type { SourceSeat } from '../../host/hostTypes.js';
import { resolveSession } from '../../host/resolveSession.js';
import { saveSelectedSource } from '../../host/sessionStore.js';
import { fetchSeats } from '../sources/listSources.js';

/** What `platform use` needs. */
export interface UseOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly host?: string;
  readonly slug: string;
}

/** The selected source (`data` of `platform use --json`). */
export interface UseReport {
  readonly host: string;
  readonly source: SourceSeat;
}

/**
 * Selects the source `publish` and `status` act on for this host, after checking that the user
 * holds a seat on it (else `forbidden`, listing the seats).
 */
export async function selectSource(options: UseOptions): Promise<UseReport> {
  const { origin, session } = resolveSession(options.env, options.host);
  const seats = await fetchSeats(origin, session.token);
  const seat = seats.find((candidate) => candidate.slug === options.slug);
  if (seat === undefined) {
    throw new CliError('forbidden', `You hold no seat on a source "${options.slug}" at ${origin}.`, {
      hint:
        seats.length === 0
          ? `Ask an owner of ${options.slug} for a seat, then run \`platform use ${options.slug}\` again.`
          : `Your seats: ${seats.map((item) => `${item.slug} (${item.role})`).join(', ')}. Run \`platform use <slug>\` with one of them, or ask an owner of ${options.slug} for a seat.`,
    });
  }
  saveSelectedSource(options.env, origin, seat.slug);
  return { host: origin, source: seat };
}
