import { CliError } from '../cli/CliError.js';
import type { HostSession } from './sessionStore.js';

/** Where a target source came from, for messages. */
export type SourceOrigin = 'option' | 'selection' | 'manifest';

/** The source a command acts on, and why that one. */
export interface TargetSource {
  readonly slug: string;
  readonly from: SourceOrigin;
}

/**
 * The publish target: `--source` > the `platform use` selection for the host > platform.json's
 * `source`; none is a usage-style `no_source` error.
 */
export function resolveTargetSource(
  option: string | undefined,
  session: HostSession,
  manifestSource: string | undefined,
): TargetSource {
  if (option !== undefined) return { slug: option, from: 'option' };
  if (session.source !== undefined) return { slug: session.source, from: 'selection' };
  if (manifestSource !== undefined) return { slug: manifestSource, from: 'manifest' };
  throw new CliError(
    'no_source',
    'No source to act on: no --source, no `platform use` selection, no "source" in platform.json.',
    {
      hint: 'Pass --source <slug>, or run `platform use <slug>` once (`platform sources` lists yours), or set "source" in platform.json.',
    },
  );
}
