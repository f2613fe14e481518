import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installProject } from '@platform/host';
import type { Db } from '../src/db/Db.js';
import type { Runtime } from '../src/runtime/Runtime.js';
import { addSourceAccount, type InstalledVersion, upsertActivation } from '../src/store/integrations.js';
import { FIXTURES } from './_host.js';

/** One integration of a {@link installFactoryProject} project: `<fixture>/integration.ts`'s `factory(options)`. */
export interface FactoryIntegration {
  readonly slug: string;
  /** The fixture folder under `test/fixtures/`, e.g. `ports/github-issues`. */
  readonly fixture: string;
  /** The factory `integration.ts` exports. */
  readonly factory: string;
  /** Its argument, as JSON (e.g. a fake vendor's random loopback origin for `egress`). */
  readonly options: unknown;
}

/**
 * Installs (and, given an account, activates) a project whose integrations are fixture factories
 * called with test-time values: egress must name a fake vendor's exact origin, port included, and
 * that port is random. The project lives in a temporary folder only while it is built.
 * @example await installFactoryProject(host, [{ slug: 'test-egress-probe', fixture: 'egress-probe', factory: 'egressProbe', options: { egress: [origin] } }], owner);
 */
export async function installFactoryProject(
  host: { readonly db: Db; readonly services: { readonly runtime: Runtime } },
  integrations: readonly FactoryIntegration[],
  activateFor?: { readonly accountId: string; readonly userId: string },
): Promise<InstalledVersion[]> {
  const projectDir = await mkdtemp(join(tmpdir(), 'platform-factory-'));
  try {
    for (const integration of integrations) {
      const module = JSON.stringify(`${FIXTURES}${integration.fixture}/integration.ts`);
      await writeFile(
        join(projectDir, `${integration.slug}.ts`),
        `import { ${integration.factory} } from ${module};\nexport default ${integration.factory}(${JSON.stringify(integration.options)});\n`,
      );
    }
    await writeFile(
      join(projectDir, 'platform.json'),
      JSON.stringify({ integrations: integrations.map(({ slug }) => ({ slug, entry: `${slug}.ts` })) }),
    );
    const { versions } = await installProject({ db: host.db, runtime: host.services.runtime, projectDir });
    if (activateFor !== undefined) {
      for (const version of versions) {
        // Served first: activation requires a source that serves the account.
        await addSourceAccount(host.db, version.sourceId, activateFor.accountId);
        await upsertActivation(host.db, { slug: version.slug, ...activateFor, data: null });
      }
    }
    return versions;
  } finally {
    await rm(projectDir, { recursive: true, force: true });
  }
}
