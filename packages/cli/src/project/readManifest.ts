import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isKebabCase, kebabCaseMessage } from '@platform/integration-schema';
import { CliError } from '../cli/CliError.js';

/** The project manifest's file name, at the project root. */
export const MANIFEST_FILE = 'platform.json';

/** One integration of the manifest: its slug and the module that default-exports its definition. */
export interface ManifestIntegration {
  readonly slug: string;
  /** Relative to the project root, for example `src/acme-notes/integration.ts`. */
  readonly entry: string;
  /** The entry as written, for the listing fields (`name`, `description`, `icon`, `docs`; see validate's `checkListing`). */
  readonly raw: Readonly<Record<string, unknown>>;
}

/** `platform.json`: `{ integrations: [{ slug, entry, name?, description?, icon?, docs? }], docs?: string[], source?: string }`. */
export interface Manifest {
  readonly integrations: readonly ManifestIntegration[];
  readonly docs: readonly string[];
  readonly source?: string;
}

/** Something wrong in the manifest, at a key path such as `integrations.0.slug`. */
export interface ManifestProblem {
  readonly severity: 'error' | 'warning';
  readonly path: string;
  readonly message: string;
  readonly hint: string;
}

/**
 * True for a doc given as a URL (`https://...`, any scheme): recorded as it is, never a local file.
 * @example isDocUrl('https://acme.example/help') // true; isDocUrl('docs/setup.md') // false
 */
export function isDocUrl(doc: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(doc);
}

const KNOWN_KEYS = new Set(['integrations', 'docs', 'source', '$schema']);

/**
 * Reads and checks `platform.json`. A missing file is a `project_not_found` error (there is no
 * project to check); anything wrong inside it is a problem, and the usable parts are returned.
 */
export function readManifest(projectDir: string): { manifest: Manifest; problems: ManifestProblem[] } {
  const path = join(projectDir, MANIFEST_FILE);
  if (!existsSync(path)) {
    throw new CliError('project_not_found', `No ${MANIFEST_FILE} in ${projectDir}.`, {
      hint: 'Run the command in a project folder (the one holding platform.json), pass --cwd <dir>, or create a project with `platform init`.',
    });
  }
  const problems: ManifestProblem[] = [];
  const error = (key: string, message: string, hint: string) =>
    problems.push({ severity: 'error', path: key, message, hint });
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (thrown) {
    error(
      '(root)',
      `is not valid JSON: ${(thrown as Error).message}`,
      `Fix the JSON syntax of ${MANIFEST_FILE}.`,
    );
    return { manifest: { integrations: [], docs: [] }, problems };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    error(
      '(root)',
      'must be a JSON object',
      'Write platform.json as { "integrations": [{ "slug": ..., "entry": ... }] }.',
    );
    return { manifest: { integrations: [], docs: [] }, problems };
  }
  const record = raw as Record<string, unknown>;
  for (const key of Object.keys(record).filter((key) => !KNOWN_KEYS.has(key))) {
    problems.push({
      severity: 'warning',
      path: key,
      message: `unrecognised key "${key}"`,
      hint: `Remove "${key}" from ${MANIFEST_FILE}; it holds only integrations, docs and source.`,
    });
  }

  const integrations: ManifestIntegration[] = [];
  if (!Array.isArray(record.integrations) || record.integrations.length === 0) {
    error(
      'integrations',
      'must be a non-empty array of { "slug", "entry" }',
      'List each integration as { "slug": "acme-notes", "entry": "src/acme-notes/integration.ts" }.',
    );
  } else {
    const seen = new Map<string, number>();
    record.integrations.forEach((item: unknown, index) => {
      const at = `integrations.${index}`;
      const entry = item as { slug?: unknown; entry?: unknown } | null;
      if (typeof entry?.slug !== 'string' || typeof entry.entry !== 'string' || entry.entry === '') {
        error(
          at,
          'must be { "slug": string, "entry": string }',
          `Give integration ${index} a slug and an entry module path.`,
        );
        return;
      }
      if (!isKebabCase(entry.slug)) {
        error(
          `${at}.slug`,
          kebabCaseMessage('slug', entry.slug),
          'Use the kebab-case slug the definition declares.',
        );
        return;
      }
      const first = seen.get(entry.slug);
      if (first !== undefined) {
        error(
          `${at}.slug`,
          `duplicate slug "${entry.slug}" (also integrations.${first})`,
          'List each integration once; give each its own slug.',
        );
        return;
      }
      seen.set(entry.slug, index);
      integrations.push({ slug: entry.slug, entry: entry.entry, raw: entry as Record<string, unknown> });
    });
  }

  const docs: string[] = [];
  if (record.docs !== undefined) {
    if (!Array.isArray(record.docs) || record.docs.some((doc) => typeof doc !== 'string')) {
      error(
        'docs',
        'must be an array of strings (paths or URLs)',
        'Write docs as ["docs/setup.md", "https://..."].',
      );
    } else {
      docs.push(...(record.docs as string[]));
    }
  }
  let source: string | undefined;
  if (record.source !== undefined) {
    if (typeof record.source !== 'string' || !isKebabCase(record.source)) {
      error(
        'source',
        'must be a kebab-case source slug',
        'Set source to the slug of the source to publish to, or remove it.',
      );
    } else {
      source = record.source;
    }
  }
  return { manifest: { integrations, docs, ...(source === undefined ? {} : { source }) }, problems };
}
