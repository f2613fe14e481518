import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { DefinitionManifest } from '@platform/sdk/runtime';
import { type BrowserBundle, buildBrowserBundle } from '../bundle/buildBrowserBundle.js';
import { buildBundle } from '../bundle/buildBundle.js';
import type { Db } from '../db/Db.js';
import { readProjectComponents } from '../gate/projectComponents.js';
import { readProjectListing, type StoredListing } from '../gate/projectListing.js';
import type { Runtime } from '../runtime/Runtime.js';
import { newId } from '../store/ids.js';
import {
  addVersion,
  createSource,
  findSource,
  type InstalledVersion,
  type Source,
} from '../store/integrations.js';

interface ProjectManifest {
  readonly integrations: readonly ({ readonly slug: string; readonly entry: string } & Record<
    string,
    unknown
  >)[];
  readonly source?: string;
}

export const LOCAL_SOURCE_SLUG = 'local';

/**
 * Builds every integration of a partner project (its `platform.json`) and records each as a `dev`
 * version on a development source, live at once, with its listing (`readProjectListing`: the rule
 * `platform validate` and the gate apply). All or nothing: a project with one broken integration
 * or one bad listing field installs none.
 * @example await installProject({ db, runtime, projectDir: 'examples/acme-notes' });
 */
export async function installProject(input: {
  db: Db;
  runtime: Runtime;
  projectDir: string;
  sourceSlug?: string | undefined;
}): Promise<{ source: Source; versions: InstalledVersion[] }> {
  const manifestPath = resolve(input.projectDir, 'platform.json');
  let manifest: ProjectManifest;
  try {
    manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as ProjectManifest;
  } catch (error) {
    throw new Error(
      `cannot read ${manifestPath}: ${(error as Error).message}; run it on a project created by \`platform init\``,
    );
  }
  if (!Array.isArray(manifest.integrations) || manifest.integrations.length === 0) {
    throw new Error(`${manifestPath} lists no integrations; add { "integrations": [{ "slug", "entry" }] }`);
  }
  const built: {
    manifest: DefinitionManifest;
    bundle: string;
    listing: StoredListing;
    browserBundle: BrowserBundle | undefined;
  }[] = [];
  for (const integration of manifest.integrations) {
    const { listing: fields, problems: listingProblems } = await readProjectListing(
      input.projectDir,
      integration,
    );
    const { components, problems: componentProblems } = readProjectComponents(input.projectDir, integration);
    const problems = [...listingProblems, ...componentProblems];
    if (problems.length > 0) {
      const lines = problems.map((problem) => `"${integration.slug}" ${problem.message} (${problem.hint})`);
      throw new Error(`${manifestPath}: ${lines.join('; ')}`);
    }
    const bundle = await buildBundle(resolve(input.projectDir, integration.entry));
    const described = await input.runtime.describe({
      id: `install-${newId()}`,
      loadBundle: async () => bundle,
    });
    if (described.slug !== integration.slug) {
      throw new Error(
        `platform.json names "${integration.slug}" but ${integration.entry} declares slug "${described.slug}"; make them agree`,
      );
    }
    // The widgets', tile's and activation form's browser bundle, served to their frames; confined
    // to the project like the gate's.
    const { tile, activationForm } = components;
    const browserBundle =
      described.widgets.length === 0 && tile === undefined && activationForm === undefined
        ? undefined
        : await buildBrowserBundle(resolve(input.projectDir, integration.entry), {
            confineTo: [resolve(input.projectDir)],
            ...(tile === undefined ? {} : { tile: resolve(input.projectDir, tile) }),
            ...(activationForm === undefined
              ? {}
              : { activationForm: resolve(input.projectDir, activationForm) }),
          });
    const listing: StoredListing = {
      ...fields,
      ...(components.tile === undefined ? {} : { tile: true }),
      ...(components.activationForm === undefined ? {} : { activationForm: true }),
    };
    built.push({ manifest: described, bundle, listing, browserBundle });
  }
  const sourceSlug = input.sourceSlug ?? manifest.source ?? LOCAL_SOURCE_SLUG;
  return input.db.transaction(async (tx) => {
    let source = await findSource(tx, sourceSlug);
    if (source === undefined) {
      if (input.sourceSlug !== undefined && input.sourceSlug !== LOCAL_SOURCE_SLUG) {
        throw new Error(
          `no source "${sourceSlug}"; create it with \`platform-host admin source create ${sourceSlug} --stage development\``,
        );
      }
      source = await createSource(tx, { slug: sourceSlug, name: sourceSlug, stage: 'development' });
    }
    if (source.stage !== 'development') {
      throw new Error(
        `source "${source.slug}" is a production source; install targets development sources (publish goes through the gate)`,
      );
    }
    const versions = [];
    for (const { manifest: described, bundle, listing, browserBundle } of built) {
      versions.push(
        await addVersion(tx, {
          source: source,
          manifest: described,
          bundle,
          browserBundle,
          status: 'dev',
          listing,
        }),
      );
    }
    return { source, versions };
  });
}
