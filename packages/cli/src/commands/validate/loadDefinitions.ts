import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DefinitionProblem } from '@platform/integration-schema';
import type { Message } from 'esbuild';
import type { ManifestIntegration } from '../../project/readManifest.js';
import { bundleEntry } from './bundleEntry.js';
import { type Finding, finding } from './finding.js';

/** One manifest integration after loading its entry. */
export interface LoadedIntegration extends ManifestIntegration {
  /** The entry's default export, when the entry imported (it may still be an invalid definition). */
  readonly definition?: unknown;
  /** The slug the definition declares, when one could be read. */
  readonly definitionSlug?: string;
  /** `definition.load`, or `definition.schema` when the project's own `defineIntegration` threw. */
  readonly findings: readonly Finding[];
}

/** How long one entry may take to import, by default, before it is reported as hanging. */
export const LOAD_TIMEOUT_MS = 15_000;

/**
 * Compiles every entry (in parallel) and imports them one after another into this process. The
 * project's own packages are used (its `@platform/sdk` runs `defineIntegration`), so what loads
 * here is what loads at the host. Compiled modules live in a temporary folder, removed afterwards;
 * nothing is written into the project.
 */
export async function loadDefinitions(
  projectDir: string,
  integrations: readonly ManifestIntegration[],
  timeoutMs = LOAD_TIMEOUT_MS,
): Promise<LoadedIntegration[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'platform-validate-'));
  try {
    const bundles = await Promise.all(
      integrations.map(async (integration, index) => {
        const entryPath = resolve(projectDir, integration.entry);
        if (!existsSync(entryPath)) return { integration, missing: true as const };
        const outfile = join(outDir, `${index}-${integration.slug}.mjs`);
        return {
          integration,
          missing: false as const,
          outfile,
          result: await bundleEntry(projectDir, entryPath, outfile),
        };
      }),
    );
    process.setSourceMapsEnabled(true);
    const loaded: LoadedIntegration[] = [];
    for (const bundle of bundles) {
      const { integration } = bundle;
      if (bundle.missing) {
        loaded.push({ ...integration, findings: [missingEntry(integration)] });
      } else if (!bundle.result.ok) {
        loaded.push({
          ...integration,
          findings: bundle.result.errors.slice(0, 5).map((error) => compileError(integration, error)),
        });
      } else {
        writeFileSync(bundle.outfile, bundle.result.code);
        loaded.push(await importEntry(projectDir, integration, bundle.outfile, timeoutMs));
      }
    }
    return loaded;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function importEntry(
  projectDir: string,
  integration: ManifestIntegration,
  outfile: string,
  timeoutMs: number,
): Promise<LoadedIntegration> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LoadTimeout(timeoutMs)), timeoutMs);
    timer.unref();
  });
  let namespace: Record<string, unknown>;
  try {
    namespace = await Promise.race([
      import(pathToFileURL(outfile).href) as Promise<Record<string, unknown>>,
      timeout,
    ]);
  } catch (thrown) {
    return { ...integration, ...thrownAtLoad(projectDir, integration, thrown) };
  } finally {
    clearTimeout(timer);
  }
  if (!('default' in namespace) || namespace.default === undefined) {
    const named = Object.keys(namespace);
    return {
      ...integration,
      findings: [
        finding('definition.load', {
          message: `${integration.entry} has no default export${named.length > 0 ? ` (it exports ${named.map((name) => `"${name}"`).join(', ')})` : ''}`,
          path: integration.entry,
          hint: `Export the definition as the module's default: export default defineIntegration({ slug: '${integration.slug}', ... }).`,
        }),
      ],
    };
  }
  const definition = namespace.default;
  const slug = (definition as { slug?: unknown } | null)?.slug;
  return {
    ...integration,
    definition,
    ...(typeof slug === 'string' ? { definitionSlug: slug } : {}),
    findings: [],
  };
}

/**
 * `definition.schema` for one problem of a definition, at its definition path; a problem of its
 * `connection` (apiKey or basic: fields, header template, verify URL and origins against egress)
 * is `definition.connection`.
 */
export function schemaFinding(integration: ManifestIntegration, problem: DefinitionProblem): Finding {
  if (problem.path === 'connection' || problem.path.startsWith('connection.')) {
    return finding('definition.connection', {
      message: `${integration.slug} (${integration.entry}): ${problem.message}`,
      path: problem.path,
      hint: `Fix ${problem.path} in the connection of "${integration.slug}": its verify URL and authorization origins must be https:// on an egress origin, its header must name declared fields.`,
    });
  }
  return finding('definition.schema', {
    message: `${integration.slug} (${integration.entry}): ${problem.message}`,
    path: problem.path,
    hint: `Fix ${problem.path} in the definition of "${integration.slug}" as the message says.`,
  });
}

class LoadTimeout extends Error {
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

interface DefinitionErrorLike {
  readonly slug?: unknown;
  readonly problems: readonly { readonly path: unknown; readonly message: unknown }[];
}

// The project's own `IntegrationDefinitionError` (another copy of the class than ours): by shape.
function isDefinitionError(thrown: unknown): thrown is Error & DefinitionErrorLike {
  return (
    thrown instanceof Error &&
    thrown.name === 'IntegrationDefinitionError' &&
    Array.isArray((thrown as { problems?: unknown }).problems)
  );
}

function thrownAtLoad(
  projectDir: string,
  integration: ManifestIntegration,
  thrown: unknown,
): Pick<LoadedIntegration, 'findings' | 'definitionSlug'> {
  if (isDefinitionError(thrown)) {
    return {
      ...(typeof thrown.slug === 'string' ? { definitionSlug: thrown.slug } : {}),
      findings: thrown.problems.map((problem) =>
        schemaFinding(integration, { path: String(problem.path), message: String(problem.message) }),
      ),
    };
  }
  if (thrown instanceof LoadTimeout) {
    return {
      findings: [
        finding('definition.load', {
          message: `${integration.entry} did not finish importing within ${thrown.timeoutMs / 1000} s`,
          path: integration.entry,
          hint: 'Remove top-level awaits or network calls from the entry and the modules it imports; a definition must import without waiting on anything.',
        }),
      ],
    };
  }
  const error = thrown instanceof Error ? thrown : new Error(String(thrown));
  const location = locateInProject(projectDir, error.stack ?? '');
  return {
    findings: [
      finding('definition.load', {
        message: `${integration.entry} threw while importing: ${error.name}: ${error.message}`,
        path: location ?? integration.entry,
        hint: `Fix the error thrown at ${location ?? integration.entry} so that the entry imports cleanly.`,
      }),
    ],
  };
}

// The first stack frame in the project's own files (not node_modules), as `file:line:column`.
function locateInProject(projectDir: string, stack: string): string | undefined {
  for (const line of stack.split('\n').slice(1)) {
    const match = /\(?((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?\s*$/.exec(line.trim());
    if (match === null) continue;
    const file = match[1]!.startsWith('file:') ? fileURLToPath(match[1]!) : match[1]!;
    const local = relative(projectDir, file);
    if (local.startsWith('..') || local.split(sep).includes('node_modules')) continue;
    return `${local}:${match[2]}:${match[3]}`;
  }
  return undefined;
}

function missingEntry(integration: ManifestIntegration): Finding {
  return finding('definition.load', {
    message: `the entry "${integration.entry}" of "${integration.slug}" does not exist`,
    path: integration.entry,
    hint: `Create ${integration.entry}, or fix the entry of "${integration.slug}" in platform.json.`,
  });
}

function compileError(integration: ManifestIntegration, error: Message): Finding {
  const where =
    error.location === null
      ? integration.entry
      : `${error.location.file}:${error.location.line}:${error.location.column + 1}`;
  const unresolved = /^Could not resolve "([^"]+)"/.exec(error.text);
  let hint = `Fix the error at ${where} so that ${integration.entry} compiles.`;
  if (unresolved !== null) {
    const specifier = unresolved[1]!;
    hint = specifier.startsWith('.')
      ? `Fix the import path "${specifier}" at ${where}.`
      : `Install the project's dependencies (npm install), or add the package "${specifier}" imported at ${where}.`;
  }
  return finding('definition.load', {
    message: `${integration.entry} does not compile: ${error.text}`,
    path: where,
    hint,
  });
}
