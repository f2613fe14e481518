import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { isKebabCase, kebabCaseMessage, toKebabCase } from '@platform/integration-schema';
import { CliError } from '../../cli/CliError.js';
import { defineCommand } from '../../cli/defineCommand.js';
import type { Style } from '../../cli/terminal.js';
import { detectPackageManager, type PackageManager } from '../../project/packageJson.js';
import { scaffoldFiles } from './scaffoldFiles.js';

export { displayName, SCAFFOLD_VERSIONS, type ScaffoldOptions, scaffoldFiles } from './scaffoldFiles.js';

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
  const files = scaffoldFiles({ slug, docs });
  for (const [path, content] of Object.entries(files)) {
    const target = join(directory, path);
    mkdirSync(dirname(target), { recursive: true });
    // A doc that already exists (with --force) is the partner's own writing: keep it.
    if (docs.includes(path) && existsSync(target)) continue;
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
  };
}

function slugFromDirectory(directory: string): string {
  return toKebabCase(basename(directory)) || 'my-integration';
}

function relativeOrAbsolute(cwd: string, directory: string): string {
  return directory.startsWith(cwd + sep) ? directory.slice(cwd.length + 1) : directory;
}

// A doc is a URL (recorded as it is) or a relative path inside the project (created).
function checkDoc(doc: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(doc)) return doc;
  const path = normalize(doc).split(sep).join('/');
  if (doc === '' || isAbsolute(doc) || path === '..' || path.startsWith('../')) {
    throw new CliError('usage', `--docs "${doc}" is neither a URL nor a path inside the project.`, {
      hint: 'Pass a relative path such as --docs docs/setup.md, or a URL such as --docs https://example.com/help.',
    });
  }
  return path;
}

/** `platform init [directory] [--slug <slug>] [--docs <value>]... [--force]`. */
export const initCommand = defineCommand<InitOptions, InitReport>({
  name: 'init',
  summary: 'Scaffold a project (repeatable --docs <value>)',
  args: '[directory]',
  description: [
    'Writes a project into the directory (default: the current one): platform.json, an integration',
    'with a widget, an action, storage and a test, harness.config.ts with default/empty/error fixtures,',
    'a strict tsconfig.json (noUncheckedIndexedAccess), the lint preset (Biome, i18next banned), pinned',
    'dependencies, pnpm-workspace.yaml and .gitignore. Installs nothing; works with npm and pnpm.',
  ],
  options: {
    slug: {
      type: 'string',
      value: '<slug>',
      description: "The integration's kebab-case slug (default: from the directory name)",
    },
    docs: {
      type: 'string',
      value: '<value>',
      multiple: true,
      description: 'A doc for platform.json: a path (created) or a URL',
    },
    force: { type: 'boolean', description: 'Write into a non-empty directory' },
  },
  examples: [
    'platform init acme-notes',
    'platform init acme-notes --docs docs/setup.md --docs https://acme.example/help',
  ],
  exitCodes: ['1 the directory is not empty (pass --force)'],
  parse(commandLine, context) {
    if (commandLine.positionals.length > 1) {
      throw new CliError(
        'usage',
        `platform init takes one directory (got ${commandLine.positionals.length}).`,
        {
          hint: 'Run `platform init <directory>`; quote a path that contains spaces.',
        },
      );
    }
    const { slug, docs, force } = commandLine.values;
    return {
      cwd: context.cwd,
      directory: commandLine.positionals[0] ?? '.',
      ...(typeof slug === 'string' ? { slug } : {}),
      docs: Array.isArray(docs) ? docs.filter((doc) => typeof doc === 'string') : [],
      force: force === true,
      env: context.env,
    };
  },
  async run(options) {
    return { ok: true, data: initProject(options) };
  },
  render: renderInit,
});

function renderInit(report: InitReport, style: Style): string {
  return `${[
    `${style.green('Created')} ${style.bold(report.slug)} in ${report.directory}`,
    ...report.files.map((file) => `  ${file}`),
    '',
    'Next:',
    ...report.nextSteps.map((step) => `  ${style.cyan(step)}`),
  ].join('\n')}\n`;
}
