import { relative, resolve, sep } from 'node:path';
import type { DefinitionManifest } from '@platform/sdk/runtime';
import { buildBundle } from '../bundle/buildBundle.js';
import type { CheckLog } from './_checkLog.js';
import { finding } from './_finding.js';
import type { Finding, GateIntegration } from './GateResult.js';
import type { ProjectManifest } from './inspectArchive.js';

/** What `definition.load` and `definition.schema` found. */
export interface LoadedDefinitions {
  readonly loadFindings: Finding[];
  readonly schemaFindings: Finding[];
  /** Integrations whose bundle built and loaded far enough to be checked against the schema. */
  checked: number;
  /** Those that passed both checks. */
  readonly integrations: Omit<GateIntegration, 'listing'>[];
}

const MAX_COMPILE_ERRORS = 5;

/**
 * Builds each integration's bundle with the host's own {@link buildBundle} and loads it with
 * `describe` (an isolate, in production). A definition the schema refuses (the project's
 * `defineIntegration` throws `IntegrationDefinitionError`, or the runtime's strict check does) gives
 * one `definition.schema` finding per problem; anything else that stops a bundle gives
 * `definition.load`. A slug differing from platform.json's is `project.slug-agreement`.
 */
export async function loadDefinitions(options: {
  projectDir: string;
  manifest: ProjectManifest;
  describe: (bundle: string) => Promise<DefinitionManifest>;
  loadLog: CheckLog;
  schemaLog: CheckLog;
}): Promise<LoadedDefinitions> {
  const result: LoadedDefinitions = { loadFindings: [], schemaFindings: [], checked: 0, integrations: [] };
  for (const { slug, entry } of options.manifest.integrations) {
    const started = performance.now();
    let bundle: string;
    try {
      bundle = await buildBundle(resolve(options.projectDir, entry), { confineTo: [options.projectDir] });
    } catch (error) {
      options.loadLog.line(`${slug}: ${entry} does not build`);
      result.loadFindings.push(...compileFindings(options.projectDir, slug, entry, error));
      continue;
    }
    options.loadLog.line(`${slug}: built ${entry} (${Math.round(bundle.length / 1024)} KiB)`);
    let manifest: DefinitionManifest;
    try {
      manifest = await options.describe(bundle);
    } catch (error) {
      const problems = definitionProblems(error);
      if (problems === undefined) {
        const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        options.loadLog.line(`${slug}: failed to load: ${message}`);
        result.loadFindings.push(
          finding('definition.load', 'definition.load', `${slug} (${entry}) failed to load: ${message}`, {
            file: entry,
            hint: `Fix what stops ${entry} from loading: it must import without throwing and export the definition as its default.`,
          }),
        );
        continue;
      }
      result.checked++;
      options.loadLog.line(`${slug}: loaded; its definition is invalid (see definition.schema)`);
      options.schemaLog.line(`${slug}: ${problems.length} problem(s)`);
      for (const problem of problems) {
        result.schemaFindings.push(
          finding('definition.schema', 'definition.schema', `${slug}: ${problem.path}: ${problem.message}`, {
            file: entry,
            hint: `Fix ${problem.path} in the definition of "${slug}" as the message says.`,
          }),
        );
      }
      continue;
    }
    result.checked++;
    options.loadLog.line(`${slug}: loaded in ${Math.round(performance.now() - started)} ms`);
    if (manifest.slug !== slug) {
      options.schemaLog.line(`${slug}: the definition declares slug "${manifest.slug}"`);
      result.schemaFindings.push(
        finding(
          'definition.schema',
          'project.slug-agreement',
          `platform.json names "${slug}" but ${entry} declares slug "${manifest.slug}"`,
          { file: 'platform.json', hint: `Make the slug in platform.json and in ${entry} agree.` },
        ),
      );
      continue;
    }
    options.schemaLog.line(`${slug}: the definition is valid`);
    result.integrations.push({ slug, manifest, bundle });
  }
  return result;
}

interface Problem {
  readonly path: string;
  readonly message: string;
}

const HEADER = /Integration definition (?:"[^"]*"|without a slug) is invalid \(\d+ problems?\):\n/;

/**
 * The problems of an `IntegrationDefinitionError`: its `problems` when it arrives as an object (the
 * in-process runtime), else read back from its message (an isolate passes only name and message).
 */
function definitionProblems(error: unknown): Problem[] | undefined {
  const problems = (error as { problems?: unknown } | null)?.problems;
  if (Array.isArray(problems)) {
    return problems.map((problem: { path?: unknown; message?: unknown }) => ({
      path: String(problem.path),
      message: String(problem.message),
    }));
  }
  const message = error instanceof Error ? error.message : String(error);
  const header = HEADER.exec(message);
  if (header === null) return undefined;
  const lines = message.slice(header.index + header[0].length).split('\n');
  const parsed: Problem[] = [];
  for (const line of lines) {
    const match = /^ {2}(\S.*?): (.*)$/.exec(line);
    if (match === null) break;
    parsed.push({ path: match[1]!, message: match[2]! });
  }
  return parsed.length > 0 ? parsed : [{ path: '(root)', message: message.slice(header.index).trim() }];
}

interface EsbuildMessage {
  text: string;
  location: { file: string; line: number; column: number } | null;
}

function compileFindings(projectDir: string, slug: string, entry: string, error: unknown): Finding[] {
  const errors = (error as { errors?: EsbuildMessage[] } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) {
    return [
      finding(
        'definition.load',
        'definition.load',
        `${slug} (${entry}) does not build: ${(error as Error).message}`,
        {
          file: entry,
          hint: `Fix ${entry} so that it builds.`,
        },
      ),
    ];
  }
  return errors.slice(0, MAX_COMPILE_ERRORS).map((message) => {
    const file = message.location === null ? entry : projectPath(projectDir, message.location.file);
    const unresolved = /^Could not resolve "([^"]+)"/.exec(message.text)?.[1];
    return finding(
      'definition.load',
      'definition.load',
      `${slug} (${entry}) does not build: ${message.text}`,
      {
        file,
        line: message.location?.line,
        hint:
          unresolved === undefined
            ? `Fix the error in ${file} so that ${entry} builds.`
            : unresolved.startsWith('.')
              ? `Fix the import path "${unresolved}" in ${file}.`
              : `Add the package "${unresolved}" to the project's dependencies, run \`npm install\`, and publish again.`,
      },
    );
  });
}

/** A file esbuild reported (relative to this process's working directory) as a project path. */
export function projectPath(projectDir: string, file: string): string {
  const local = relative(projectDir, resolve(file));
  return local.startsWith(`..${sep}`) ? file : local.split(sep).join('/');
}
