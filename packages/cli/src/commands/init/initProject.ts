import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { isKebabCase, kebabCaseMessage, toKebabCase } from '@platform/integration-schema';
import { CliError } from '../../cli/CliError.js';
import { detectPackageManager, type PackageManager } from '../../project/packageJson.js';
import { isDocUrl } from '../../project/readManifest.js';
import { DEFAULT_HOST } from './defaultHost.js';
import { scaffoldFiles } from './scaffoldFiles.js';

/** What `initProject` needs. */
export interface InitOptions {
  /** Where the command runs; `directory` is relative to it and the next steps start from it. */
  readonly cwd: string;
  /** The project directory (created when missing). */
  readonly directory: string;
  /** Default: the directory's name in kebab-case. */
  readonly slug?: string;
  /** `--docs` values: local paths (created) and URLs, recorded in platform.json. */
  readonly docs: readonly string[];
  /** Write into a non-empty directory (scaffold files are overwritten, others kept). */
  readonly force: boolean;
  /**
   * The Platform host whose `/registry/` serves `@platform/*` (`--host`); default
   * {@link DEFAULT_HOST}.
   */
  readonly host?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** What `platform init` reports (`data` of its JSON envelope). */
export interface InitReport {
  readonly directory: string;
  readonly slug: string;
  /** Written files, relative to the directory, sorted. */
  readonly files: readonly string[];
  readonly docs: readonly string[];
  readonly packageManager: PackageManager;
  readonly nextSteps: readonly string[];
  /**
   * Where `@platform/*` installs from (`.npmrc`'s `@platform:registry`): the host's `/registry/`.
   * The `@platform` scope of the public npm registry belongs to someone else.
   */
  readonly registry: string;
  /** No `--host` was given: the registry is {@link DEFAULT_HOST}'s. */
  readonly hostDefaulted: boolean;
}

// Entries that do not make a directory "non-empty" for init.
const IGNORED_ENTRIES = new Set(['.git', '.DS_Store']);

/** Scaffolds a project into `directory`; refuses a non-empty directory unless `force`. */
export function initProject(options: InitOptions): InitReport {
  const directory = resolve(options.cwd, options.directory);
  const slug = options.slug ?? slugFromDirectory(directory);
  if (!isKebabCase(slug)) {
    throw new CliError('usage', kebabCaseMessage('slug', slug), {
      hint: `Pass a kebab-case slug with --slug, for example --slug ${toKebabCase(slug) || 'acme-notes'}.`,
    });
  }
  const docs = [...new Set(options.docs.map(checkDoc))];
  const registry = registryUrl(options.host ?? DEFAULT_HOST);
  if (existsSync(directory)) {
    const entries = readdirSync(directory).filter((entry) => !IGNORED_ENTRIES.has(entry));
    if (entries.length > 0 && !options.force) {
      throw new CliError(
        'directory_not_empty',
        `${directory} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', ...' : ''}).`,
        {
          hint: 'Choose an empty or new directory, or pass --force to write the scaffold into it (files with the same names are overwritten).',
        },
      );
    }
  }
  const files = scaffoldFiles({ slug, docs, registry });
  for (const [path, content] of Object.entries(files)) {
    const target = join(directory, path);
    mkdirSync(dirname(target), { recursive: true });
    // A doc that already exists (with --force) is the partner's own writing: keep it.
    if (docs.includes(path) && existsSync(target)) continue;
    // An existing .npmrc (with --force) keeps its other settings (auth, other scopes).
    if (path === '.npmrc' && existsSync(target)) {
      writeFileSync(target, mergeNpmrc(readFileSync(target, 'utf8'), content));
      continue;
    }
    writeFileSync(target, content);
  }
  const manager = detectPackageManager(directory, options.env);
  const run = manager === 'pnpm' ? 'pnpm exec' : 'npx';
  const cd = directory === options.cwd ? [] : [`cd ${relativeOrAbsolute(options.cwd, directory)}`];
  return {
    directory,
    slug,
    files: Object.keys(files).sort(),
    docs,
    packageManager: manager,
    nextSteps: [...cd, `${manager} install`, `${run} platform validate`, `${run} platform test`],
    registry,
    hostDefaulted: options.host === undefined,
  };
}

/**
 * `<host>/registry/` of a host URL (http or https; a path prefix is kept, a trailing slash dropped).
 * @example registryUrl('https://host.example/') // 'https://host.example/registry/'
 */
export function registryUrl(host: string): string {
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    url = new URL('invalid:');
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== ''
  ) {
    throw new CliError('usage', `--host "${host}" is not an http(s) URL of a Platform host.`, {
      hint: `Pass the host's URL without query or credentials, for example --host ${DEFAULT_HOST} or --host https://platform.example.com.`,
    });
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/registry/`;
}

// The scaffold's lines replace the same settings of an existing .npmrc; the rest is kept.
function mergeNpmrc(existing: string, scaffold: string): string {
  const ours = scaffold.split('\n').filter((line) => line !== '');
  const kept = existing
    .split('\n')
    .filter((line) => !/^\s*@platform:registry\s*=/.test(line) && !ours.includes(line));
  while (kept.at(-1) === '') kept.pop();
  return `${[...kept, ...ours].join('\n')}\n`;
}

function slugFromDirectory(directory: string): string {
  return toKebabCase(basename(directory)) || 'my-integration';
}

function relativeOrAbsolute(cwd: string, directory: string): string {
  return directory.startsWith(cwd + sep) ? directory.slice(cwd.length + 1) : directory;
}

// A doc is a URL (recorded as it is) or a relative path inside the project (created).
function checkDoc(doc: string): string {
  if (isDocUrl(doc)) return doc;
  const path = normalize(doc).split(sep).join('/');
  if (doc === '' || isAbsolute(doc) || path === '..' || path.startsWith('../')) {
    throw new CliError('usage', `--docs "${doc}" is neither a URL nor a path inside the project.`, {
      hint: 'Pass a relative path such as --docs docs/setup.md, or a URL such as --docs https://example.com/help.',
    });
  }
  return path;
}
