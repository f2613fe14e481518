// The gate's browser bundles: each integration with widgets gets the bundle install builds (its
// compressed size in the `bundle` log, recorded on the version with the verdict), a size finding
// over the limits (an error rejects), and `bundle.browser-build` when it does not build.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/Db.js';
import { migrate } from '../../src/db/migrate.js';
import { openDb } from '../../src/db/openDb.js';
import { gateBrowserBundle } from '../../src/gate/_browserBundle.js';
import { CheckLog } from '../../src/gate/_checkLog.js';
import type { GateResult } from '../../src/gate/index.js';
import { createSubmission, recordVerdict } from '../../src/publish/submissions.js';
import { createSource } from '../../src/store/integrations.js';
import { createUser } from '../../src/store/users.js';
import { type GateRegistry, makeProject, startGateRegistry } from './_gateProject.js';
import { describeWith, gateProject, logOf, statuses } from './_gateRun.js';

let root: string;
let registry: GateRegistry;
let describeBundle: ReturnType<typeof describeWith>;
const cleanup: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'platform-gate-browser-'));
  registry = await startGateRegistry(join(root, 'registry'));
  describeBundle = describeWith(join(root, 'bundles'));
}, 120_000);

afterAll(async () => {
  await registry?.close();
  for (const dir of [root, ...cleanup])
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** The clean fixture's integration with one widget (a plain function: the fixture has no React). */
const withWidget = (widgetModule: string) => ({
  'src/gate-notes/NotesWidget.ts': widgetModule,
  'src/gate-notes/integration.ts': [
    "import { defineIntegration } from '@platform/sdk/integration';",
    "import { z } from 'zod';",
    "import { NotesWidget } from './NotesWidget.js';",
    '',
    'const Note = z.object({ id: z.string(), title: z.string() });',
    '',
    'export default defineIntegration({',
    "  slug: 'gate-notes',",
    "  egress: ['https://api.notes.test'],",
    "  storage: { account: { 'cache/notes': z.array(Note) } },",
    '  actions: {',
    "    'list-notes': {",
    "      description: 'Lists the notes',",
    '      input: z.object({}),',
    '      output: z.array(Note),',
    "      handler: async (ctx) => (await ctx.storage.account.get('cache/notes')) ?? [],",
    '    },',
    '  },',
    "  components: { widgets: [{ id: 'gate-notes-list', name: 'Notes', component: NotesWidget }] },",
    '});',
    '',
    "/** The first note's title, or a placeholder. */",
    'export function firstTitle(notes: readonly { title: string }[]): string {',
    "  return notes[0]?.title ?? '(none)';",
    '}',
    '',
  ].join('\n'),
});

async function gate(overlay: Record<string, string>): Promise<GateResult> {
  const project = await makeProject(registry.url, overlay);
  cleanup.push(project.dir);
  const gated = await gateProject(project.dir, { registry: registry.url, describe: describeBundle });
  cleanup.push(gated.workDir);
  return gated.result;
}

describe('a project with a small widget', () => {
  let result: GateResult;
  beforeAll(async () => {
    result = await gate(withWidget("export const NotesWidget = () => 'Notes';\n"));
  }, 300_000);

  it('passes with the browser bundle built, its size in the log and no size finding', () => {
    expect(result.verdict, JSON.stringify(result.findings, null, 2)).toBe('passed');
    expect(result.findings).toEqual([]);
    const bundle = result.integrations[0]!.browserBundle!;
    expect(bundle.code).toMatch(/export\s*\{[^}]*widgets/);
    expect(bundle.code).toContain('gate-notes-list');
    expect(bundle.gzipBytes).toBe(gzipSync(Buffer.from(bundle.code)).byteLength);
    expect(logOf(result, 'bundle')).toMatch(/gate-notes: browser bundle \d+\.\d KB compressed/);
  });

  it('records the bundle and its size on the version with the verdict, as install does', async () => {
    const db: Db = await openDb({});
    try {
      await migrate(db);
      const source = await createSource(db, { slug: 'acme-dev', name: 'Acme dev', stage: 'development' });
      const user = await createUser(db, { email: 'dev@acme.test', name: 'Dev' });
      const { submissionId, versions } = await db.transaction((tx) =>
        createSubmission(tx, {
          source,
          userId: user.id,
          archive: Buffer.from('archive'),
          slugs: ['gate-notes'],
          now: new Date(),
        }),
      );
      await db.transaction((tx) =>
        recordVerdict(tx, {
          submissionId,
          checks: [],
          findings: result.findings,
          built: result.integrations,
          now: new Date(),
        }),
      );
      const { rows } = await db.query(
        'SELECT status, browser_bundle, browser_bundle_gzip_bytes FROM versions WHERE id = $1',
        [versions[0]!.id],
      );
      const bundle = result.integrations[0]!.browserBundle!;
      expect(rows[0]).toEqual({
        status: 'dev',
        browser_bundle: bundle.code,
        browser_bundle_gzip_bytes: bundle.gzipBytes,
      });
    } finally {
      await db.close();
    }
  });
});

describe('a project with a huge widget', () => {
  let result: GateResult;
  beforeAll(async () => {
    // 300 KB that gzip cannot shrink much: past the 128 KB error limit compressed.
    const blob = randomBytes(225 * 1024).toString('base64');
    result = await gate(
      withWidget(`const BLOB = ${JSON.stringify(blob)};\nexport const NotesWidget = () => BLOB;\n`),
    );
  }, 300_000);

  it('is rejected by the bundle check with a bundle.browser-size error naming the size and the limit', () => {
    expect(result.verdict).toBe('rejected');
    expect(statuses(result).bundle).toBe('failed');
    expect(result.findings).toHaveLength(1);
    const [found] = result.findings;
    expect(found).toMatchObject({ check: 'bundle', severity: 'error', code: 'bundle.browser-size' });
    expect(found!.message).toMatch(
      /^gate-notes: the browser bundle is \d{3}\.\d KB compressed, over the 128\.0 KB limit/,
    );
    expect(found!.hint).toMatch(/Keep widgets small/);
  });
});

describe('a widget whose import does not resolve', () => {
  it("gives bundle.browser-build with esbuild's message, the file and the line", async () => {
    // In a full gate run the same import stops definition.load and the typecheck first (the
    // bundle check is then skipped); the browser build's own finding is what the check adds.
    const project = await mkdtemp(join(tmpdir(), 'platform-gate-browser-project-'));
    cleanup.push(project);
    await writeFile(
      join(project, 'integration.js'),
      "import { Missing } from './widgets/Missing.js';\nexport default { components: { widgets: [{ id: 'w', name: 'W', component: Missing }] } };\n",
    );
    const log = new CheckLog(64 * 1024);
    const built = await gateBrowserBundle({
      projectDir: project,
      slug: 'gate-notes',
      entry: 'integration.js',
      components: {},
      log,
    });
    expect(built.bundle).toBeUndefined();
    expect(built.findings).toEqual([
      expect.objectContaining({
        check: 'bundle',
        severity: 'error',
        code: 'bundle.browser-build',
        file: 'integration.js',
        line: 1,
        message: expect.stringContaining('Could not resolve "./widgets/Missing.js"'),
      }),
    ]);
    expect(log.text()).toContain('gate-notes: the browser bundle does not build');
  });

  it("exports the project's tile and activation form beside the widgets (a project with no widget too)", async () => {
    const project = await mkdtemp(join(tmpdir(), 'platform-gate-browser-project-'));
    cleanup.push(project);
    await writeFile(join(project, 'integration.js'), 'export default { slug: "gate-notes" };\n');
    await writeFile(join(project, 'Tile.js'), 'export default function Tile() { return "tile"; }\n');
    await writeFile(join(project, 'Form.js'), 'export default function Form() { return "form"; }\n');
    const log = new CheckLog(64 * 1024);
    const built = await gateBrowserBundle({
      projectDir: project,
      slug: 'gate-notes',
      entry: 'integration.js',
      components: { tile: 'Tile.js', activationForm: 'Form.js' },
      log,
    });
    expect(built.findings).toEqual([]);
    const module = (await import(
      `data:text/javascript;base64,${Buffer.from(built.bundle!.code).toString('base64')}`
    )) as { widgets: object; tile: () => string; activationForm: () => string };
    expect(module.widgets).toEqual({});
    expect(module.tile()).toBe('tile');
    expect(module.activationForm()).toBe('form');
  });
});
