import { CliError } from '../../cli/CliError.js';
import { createStyle, shouldUseColor } from '../../cli/terminal.js';
import { VERDICTS, type VersionView } from '../../host/hostTypes.js';
import { createCheckLines } from './checkLines.js';
import {
  fetchFindings,
  fetchVersions,
  resolveStatusTarget,
  type StatusOptions,
  type StatusReport,
} from './readStatus.js';

/**
 * Polls the latest submission of the target source until every version has a verdict, writing a
 * line per check as it starts and ends (when `io` is given), then fetches the findings of each
 * rejected version (of every version with `findings`).
 */
export async function watchStatus(options: StatusOptions): Promise<StatusReport> {
  const { client, source } = resolveStatusTarget(options);
  const pollMs = options.pollMs ?? 1000;
  const lines =
    options.io === undefined
      ? undefined
      : createCheckLines(options.io.stderr, createStyle(shouldUseColor(options.io.stderr, options.env)));
  let versions: readonly VersionView[];
  try {
    for (;;) {
      versions = await fetchVersions(client, source.slug, false);
      if (versions.length === 0) {
        throw new CliError(
          'version_not_found',
          `${source.slug} on ${client.origin} has no versions to watch yet.`,
          {
            hint: 'Run `platform publish` in the project first, then `platform status --watch`.',
          },
        );
      }
      lines?.update(versions);
      if (versions.every((version) => VERDICTS.has(version.status))) break;
      await new Promise((done) => setTimeout(done, pollMs));
    }
  } finally {
    lines?.close();
  }
  return {
    host: client.origin,
    source,
    scope: 'latest',
    versions: await Promise.all(
      versions.map(async (version) =>
        version.status === 'rejected' || options.findings === true
          ? { ...version, findings: await fetchFindings(client, version.id) }
          : version,
      ),
    ),
  };
}
