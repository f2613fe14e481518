import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundle } from '../bundle/buildBundle.js';
import type { Host } from '../createHost.js';
import { installProject } from '../install/installProject.js';
import { type InstalledVersion, liveVersion } from '../store/integrations.js';

/** One example project as `serve` left it. */
export interface ExampleInstall {
  readonly project: string;
  readonly integrations: readonly {
    readonly slug: string;
    readonly version: number;
    /** No version existed before this start. */
    readonly firstInstall: boolean;
  }[];
  /** A new version was recorded on this start (first start, or the bundle changed). */
  readonly installed: boolean;
}

/**
 * The monorepo's `examples/` when this package runs from a checkout (`packages/host/{src,dist}/cli`);
 * undefined when it was installed from the registry, where `../../../../` is someone else's folder.
 */
export function repoExamplesDir(): string | undefined {
  const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
  if (basename(resolve(packageRoot, '..')) !== 'packages') return undefined;
  const dir = resolve(packageRoot, '../../examples');
  return existsSync(dir) ? dir : undefined;
}

/** The folders of `dir` holding a `platform.json`, sorted. */
export async function findExampleProjects(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'platform.json')))
    .map((entry) => join(dir, entry.name))
    .sort();
}

/**
 * Installs an example project unless every one of its integrations is already live with the
 * same bundle: restarts record nothing new, an edited example gets a new version.
 */
export async function installExample(host: Host, projectDir: string): Promise<ExampleInstall> {
  const manifest = JSON.parse(await readFile(join(projectDir, 'platform.json'), 'utf8')) as {
    integrations?: readonly { slug: string; entry: string }[];
  };
  const current: { slug: string; live: InstalledVersion | undefined }[] = [];
  let changed = false;
  for (const integration of manifest.integrations ?? []) {
    const live = await liveVersion(host.db, integration.slug);
    current.push({ slug: integration.slug, live });
    if (
      live === undefined ||
      (await live.loadBundle()) !== (await buildBundle(resolve(projectDir, integration.entry)))
    ) {
      changed = true;
    }
  }
  if (!changed) {
    return {
      project: projectDir,
      integrations: current.map(({ slug, live }) => ({ slug, version: live!.number, firstInstall: false })),
      installed: false,
    };
  }
  const { versions } = await installProject({ db: host.db, runtime: host.services.runtime, projectDir });
  return {
    project: projectDir,
    integrations: versions.map((version) => ({
      slug: version.slug,
      version: version.number,
      firstInstall: current.find((entry) => entry.slug === version.slug)?.live === undefined,
    })),
    installed: true,
  };
}
