import { createGunzip } from 'node:zlib';
import { Parser } from 'tar';
import { checkArchiveEntry, isRegularFile } from './_archiveEntry.js';
import { ArchiveError } from './ArchiveError.js';

/** Upper bounds for an uploaded project archive. */
export interface ArchiveLimits {
  /** The gzipped upload. */
  readonly maxBytes?: number;
  readonly maxFiles?: number;
  /** The sum of the file sizes once unpacked. */
  readonly maxUnpackedBytes?: number;
}

export const DEFAULT_ARCHIVE_LIMITS = {
  maxBytes: 20 * 1024 * 1024,
  maxFiles: 10_000,
  maxUnpackedBytes: 100 * 1024 * 1024,
} as const satisfies Required<ArchiveLimits>;

/** A partner project's `platform.json`, checked: entries are paths relative to the root. */
export interface ProjectManifest {
  readonly integrations: readonly {
    readonly slug: string;
    readonly entry: string;
    /** The entry as written, for its listing fields (`readProjectListing`). */
    readonly raw: Readonly<Record<string, unknown>>;
  }[];
  readonly source?: string;
}

/** What an accepted archive holds. */
export interface ArchiveContents {
  readonly manifest: ProjectManifest;
  /** Every regular file, relative to the project root, in archive order. */
  readonly files: readonly string[];
}

const MANIFEST_EXAMPLE =
  '{ "integrations": [{ "slug": "acme-notes", "entry": "src/acme-notes/integration.ts" }] }';
const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * Reads a gzipped tar of a partner project in memory, writing nothing, and rejects with an
 * {@link ArchiveError} naming the file and the fix for anything the gate refuses: not a gzipped
 * tar, links and devices, absolute or escaping paths, local secrets (`.env*`,
 * `.platform/local-secrets.json`), a missing or invalid `platform.json`, no `package.json` or
 * `package-lock.json`, or more than the limits. Off the event loop where it costs: the archive is
 * inflated by zlib on libuv's thread pool and parsed chunk by chunk as the chunks arrive, so a
 * small upload that inflates to the limit holds up no other request. Routes await it before
 * storing anything.
 * @example const { manifest } = await inspectArchive(body, { maxBytes: 20 * 1024 * 1024 });
 */
export async function inspectArchive(archive: Buffer, limits: ArchiveLimits = {}): Promise<ArchiveContents> {
  const max = { ...DEFAULT_ARCHIVE_LIMITS, ...limits };
  if (archive.length > max.maxBytes) {
    throw new ArchiveError(
      'too_large',
      `the archive is ${mib(archive.length)}; the limit is ${mib(max.maxBytes)}`,
      {
        hint: 'Leave build output, node_modules and large assets out of the archive (`platform publish` does).',
      },
    );
  }
  if (archive.length < 2 || archive[0] !== 0x1f || archive[1] !== 0x8b) {
    throw new ArchiveError('not_gzip', 'the upload is not gzipped: the host takes a .tar.gz of the project', {
      hint: 'Publish with `platform publish`, or send `tar -czf - .` of the project folder.',
    });
  }

  const files = new Set<string>();
  const problems: string[] = [];
  let unpackedBytes = 0;
  let refused: unknown;
  let manifestText: string | undefined;
  const parser = new Parser({
    onwarn: (_code, message: string | Error) =>
      problems.push(typeof message === 'string' ? message : message.message),
    onReadEntry: (entry) => {
      if (refused !== undefined) return entry.resume();
      try {
        const path = checkArchiveEntry(entry.path, entry.type);
        if (path !== undefined && isRegularFile(entry.type)) {
          files.add(path);
          unpackedBytes += entry.size;
          checkCounts(files.size, unpackedBytes, max);
          if (path === 'platform.json') {
            if (entry.size > MAX_MANIFEST_BYTES) {
              throw invalidManifest(`platform.json is ${mib(entry.size)}; a project manifest is a few lines`);
            }
            const chunks: Buffer[] = [];
            entry.on('data', (chunk: Buffer) => chunks.push(chunk));
            entry.on('end', () => {
              manifestText = Buffer.concat(chunks).toString('utf8');
            });
          }
        }
      } catch (error) {
        refused = error;
        // Nothing after the first refusal matters: stop reading.
        parser.abort(error as Error);
      }
      entry.resume();
    },
  });
  parser.on('error', (error: Error) => problems.push(error.message));
  await inflateInto(archive, max, parser, () => refused !== undefined);
  if (refused !== undefined) throw refused;
  if (problems.length > 0) {
    throw new ArchiveError('not_tar', `the upload is not a readable tar.gz archive (${problems[0]})`, {
      hint: 'Publish with `platform publish`, or send `tar -czf - .` of the project folder.',
    });
  }
  if (manifestText === undefined) {
    throw new ArchiveError('no_manifest', 'the archive has no platform.json at its root', {
      file: 'platform.json',
      hint: `Publish from the project folder (the one with platform.json), or add platform.json: ${MANIFEST_EXAMPLE}.`,
    });
  }
  const manifest = parseManifest(manifestText, files);
  for (const [file, why] of [
    ['package.json', 'the gate installs the project from it'],
    ['package-lock.json', 'the gate installs exactly what the lockfile pins'],
  ] as const) {
    if (!files.has(file)) {
      throw new ArchiveError(
        file === 'package.json' ? 'no_package_json' : 'no_lockfile',
        `the archive has no ${file} at its root: ${why}`,
        {
          file,
          hint: 'Run `npm install` in the project to write package-lock.json, and publish again.',
        },
      );
    }
  }
  return { manifest, files: [...files] };
}

// Inflated as a stream (zlib works on the thread pool) into the parser, chunk by chunk, within the
// limits (plus room for tar's headers and padding): a small upload that inflates without end is
// refused once it passes them, never held whole. Stops early once `stopped()` (a refusal).
function inflateInto(
  archive: Buffer,
  max: Required<ArchiveLimits>,
  parser: Parser,
  stopped: () => boolean,
): Promise<void> {
  const limit = max.maxUnpackedBytes + (max.maxFiles + 32) * 1536;
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip();
    let inflated = 0;
    let settled = false;
    const finish = (error?: ArchiveError) => {
      if (settled) return;
      settled = true;
      gunzip.destroy();
      if (error === undefined) resolve();
      else reject(error);
    };
    gunzip.on('data', (chunk: Buffer) => {
      inflated += chunk.length;
      if (inflated > limit) {
        finish(
          new ArchiveError('too_large', `the archive unpacks to more than ${mib(max.maxUnpackedBytes)}`, {
            hint: 'Leave node_modules, build output and large assets out of the archive (`platform publish` does).',
          }),
        );
        return;
      }
      parser.write(chunk);
      if (stopped()) finish();
    });
    gunzip.on('end', () => {
      if (settled) return;
      parser.end();
      finish();
    });
    gunzip.on('error', (error: Error) =>
      finish(
        new ArchiveError('not_gzip', `the upload is not a readable gzip file (${error.message})`, {
          hint: 'Publish with `platform publish`, or send `tar -czf - .` of the project folder.',
          cause: error,
        }),
      ),
    );
    gunzip.end(archive);
  });
}

function checkCounts(fileCount: number, bytes: number, max: Required<ArchiveLimits>): void {
  if (fileCount > max.maxFiles) {
    throw new ArchiveError('too_many_files', `the archive holds more than ${max.maxFiles} files`, {
      hint: 'Leave node_modules, build output and generated files out of the archive (`platform publish` does).',
    });
  }
  if (bytes > max.maxUnpackedBytes) {
    throw new ArchiveError('too_large', `the archive unpacks to more than ${mib(max.maxUnpackedBytes)}`, {
      hint: 'Leave node_modules, build output and large assets out of the archive (`platform publish` does).',
    });
  }
}

function parseManifest(text: string, files: ReadonlySet<string>): ProjectManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw invalidManifest(`platform.json is not valid JSON (${(error as Error).message})`);
  }
  const integrations = (raw as { integrations?: unknown } | null)?.integrations;
  if (!Array.isArray(integrations) || integrations.length === 0) {
    throw invalidManifest('platform.json lists no integrations');
  }
  const slugs = new Set<string>();
  const checked = integrations.map((item: unknown, index) => {
    const { slug, entry } = (item ?? {}) as { slug?: unknown; entry?: unknown };
    if (typeof slug !== 'string' || slug === '' || typeof entry !== 'string' || entry === '') {
      throw invalidManifest(
        `platform.json integrations[${index}] needs a "slug" and an "entry", both strings`,
      );
    }
    if (slugs.has(slug)) throw invalidManifest(`platform.json lists the slug "${slug}" twice`);
    slugs.add(slug);
    const path = entry.replace(/^(\.\/)+/, '');
    if (!files.has(path)) {
      throw invalidManifest(
        `platform.json names ${entry} as the entry of "${slug}", but the archive has no such file`,
        `Fix the entry of "${slug}" in platform.json (a path relative to the project root), or include the file.`,
      );
    }
    return { slug, entry: path, raw: item as Record<string, unknown> };
  });
  const source = (raw as { source?: unknown }).source;
  if (source !== undefined && typeof source !== 'string') {
    throw invalidManifest('platform.json "source" must be a string (the slug of a source)');
  }
  return { integrations: checked, ...(source === undefined ? {} : { source }) };
}

function invalidManifest(message: string, hint = `Fix platform.json: ${MANIFEST_EXAMPLE}.`): ArchiveError {
  return new ArchiveError('invalid_manifest', message, { file: 'platform.json', hint });
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
