import { parseDefinition } from '@platform/integration-schema';
import { type Progress, silentProgress } from '../../cli/progress.js';
import { freeIconNames } from '../../icons/freeIconNames.js';
import { MANIFEST_FILE, readManifest } from '../../project/readManifest.js';
import { checkSchemaSkew, type SchemaSkew, schemaSkewError } from '../../project/schemaSkew.js';
import { type BrowserBundleCheck, checkBrowserBundle } from './checkBrowserBundle.js';
import { checkToolNameCollisions, checkWidgetIdCollisions } from './checkCollisions.js';
import { checkCompilerRules } from './checkCompilerRules.js';
import { checkComponents, frameComponentsOf } from './checkComponents.js';
import { checkDocs } from './checkDocs.js';
import { checkIcons } from './checkIcons.js';
import { checkListing } from './checkListing.js';
import { checkTools } from './checkTools.js';
import { widgetsOf } from './declarations.js';
import { type Finding, finding } from './finding.js';
import { type LoadedIntegration, loadDefinitions, schemaFinding } from './loadDefinitions.js';

/** What `validateProject` needs. */
export interface ValidateOptions {
  /** The project root (the folder holding platform.json). */
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly progress?: Progress;
  /** How long one entry may take to import (default 15 s). */
  readonly loadTimeoutMs?: number;
}

/** One integration of the manifest as validate saw it. */
export interface IntegrationSummary {
  readonly slug: string;
  readonly entry: string;
  /** The slug its definition declares, when the entry loaded far enough to tell. */
  readonly definitionSlug: string | null;
  /** True when the entry imported and default-exported a value. */
  readonly loaded: boolean;
  /**
   * Its widgets' browser bundle as the host builds it, gzipped (`browser bundle: NN.N KB
   * compressed`); null without widgets or when it does not build (`bundle.browser-build`).
   */
  readonly browserBundle: { readonly gzipBytes: number } | null;
}

/** What `platform validate` reports (`data` of its JSON envelope). */
export interface ValidateReport {
  readonly project: string;
  readonly schema: SchemaSkew;
  readonly integrations: readonly IntegrationSummary[];
  readonly findings: readonly Finding[];
  readonly summary: { readonly errors: number; readonly warnings: number };
}

/**
 * Checks a project: its manifest, tsconfig and docs, then each integration's definition (compiled
 * and imported with the project's own packages), then what no single definition can see (widget
 * id and tool name collisions, icons). Refuses with `precondition_failed` before loading anything
 * when the project's integration-schema is newer than the bundled one. Findings never throw.
 */
export async function validateProject(options: ValidateOptions): Promise<ValidateReport> {
  const projectDir = options.cwd;
  const progress = options.progress ?? silentProgress;
  const { manifest, problems } = readManifest(projectDir);
  const schema = checkSchemaSkew(projectDir);
  if (schema.skewed) throw schemaSkewError(schema, projectDir, options.env ?? {});

  // Start reading the free icon names now: the file reads overlap compiling and loading below.
  freeIconNames().catch(() => undefined);

  const findings: Finding[] = problems.map((problem) =>
    finding('project.manifest', {
      severity: problem.severity,
      message: `${MANIFEST_FILE}: ${problem.path}: ${problem.message}`,
      path: MANIFEST_FILE,
      hint: problem.hint,
    }),
  );
  findings.push(
    ...checkCompilerRules(projectDir),
    ...checkDocs(projectDir, manifest.docs),
    ...(await checkListing(projectDir, manifest.integrations)),
    ...checkComponents(projectDir, manifest.integrations),
  );

  const count = manifest.integrations.length;
  const step = progress.start(`Loading ${count} integration${count === 1 ? '' : 's'}`);
  let loaded: LoadedIntegration[];
  try {
    loaded = await loadDefinitions(projectDir, manifest.integrations, options.loadTimeoutMs);
  } finally {
    step.stop();
  }
  for (const integration of loaded) findings.push(...checkIntegration(integration));
  // Each browser bundle as the host's install and gate build it, for its compressed size.
  const browserBundles = new Map<string, BrowserBundleCheck>();
  for (const integration of loaded) {
    if (!('definition' in integration)) continue;
    const declared = manifest.integrations.find((item) => item.slug === integration.slug);
    const components = declared === undefined ? {} : frameComponentsOf(projectDir, declared);
    if (
      widgetsOf(integration.definition).length === 0 &&
      components.tile === undefined &&
      components.activationForm === undefined
    )
      continue;
    const bundled = await checkBrowserBundle(projectDir, integration.entry, components);
    browserBundles.set(integration.slug, bundled);
    findings.push(...bundled.findings);
  }
  findings.push(
    ...checkWidgetIdCollisions(loaded),
    ...checkToolNameCollisions(loaded),
    ...(await checkIcons(loaded)),
  );

  return {
    project: projectDir,
    schema,
    integrations: loaded.map((integration) => {
      const gzipBytes = browserBundles.get(integration.slug)?.gzipBytes ?? null;
      return {
        slug: integration.slug,
        entry: integration.entry,
        definitionSlug: integration.definitionSlug ?? null,
        loaded: 'definition' in integration,
        browserBundle: gzipBytes === null ? null : { gzipBytes },
      };
    }),
    findings,
    summary: {
      errors: findings.filter((item) => item.severity === 'error').length,
      warnings: findings.filter((item) => item.severity === 'warning').length,
    },
  };
}

// What one loaded integration shows on its own: load and schema findings, then slug agreement.
function checkIntegration(integration: LoadedIntegration): Finding[] {
  const findings = [...integration.findings];
  if ('definition' in integration) {
    const parsed = parseDefinition(integration.definition);
    if (!parsed.ok) {
      findings.push(...parsed.problems.map((problem) => schemaFinding(integration, problem)));
    }
    findings.push(...checkTools(integration));
  }
  if (integration.definitionSlug !== undefined && integration.definitionSlug !== integration.slug) {
    findings.push(
      finding('project.slug-agreement', {
        message: `${MANIFEST_FILE} lists "${integration.slug}" (entry ${integration.entry}), but its definition declares slug "${integration.definitionSlug}"`,
        path: 'slug',
        hint: `Use one slug in both places: set the definition's slug or the ${MANIFEST_FILE} entry to the same value.`,
      }),
    );
  }
  return findings;
}
