import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Finding, ValidateReport } from '@platform/cli';
import { buildBrowserBundle } from '@platform/host';
import { describe, expect, it } from 'vitest';
import {
  cleanEnv,
  EXAMPLE_PROJECT,
  entrySource,
  envelopeOf,
  linkRepoNodeModules,
  projectFiles,
  run,
  tempDirectories,
  writeFiles,
} from './_helpers.js';

const tempDir = tempDirectories();

function project(files: Record<string, string>): string {
  const dir = tempDir();
  writeFiles(dir, files);
  linkRepoNodeModules(dir);
  return dir;
}

async function validate(dir: string) {
  const result = await run(['validate', '--json'], { cwd: dir });
  return { result, envelope: envelopeOf<ValidateReport>(result) };
}

const findingsOf = (report: ValidateReport | undefined, id: Finding['id']) =>
  (report?.findings ?? []).filter((item) => item.id === id);

const widget = (id: string, icon?: string) =>
  `{ id: '${id}', name: 'Board', component: () => null${icon === undefined ? '' : `, icon: '${icon}'`} }`;

describe('platform validate on the example project', () => {
  it('finds nothing, exits 0 and prints one JSON envelope with data.findings', async () => {
    const { result, envelope } = await validate(EXAMPLE_PROJECT);
    expect(result.code).toBe(0);
    expect(envelope.ok).toBe(true);
    expect(envelope.data?.findings).toEqual([]);
    expect(envelope.data?.summary).toEqual({ errors: 0, warnings: 0 });
    expect(envelope.data?.integrations).toEqual([
      {
        slug: 'acme-notes',
        entry: 'src/acme-notes/integration.ts',
        definitionSlug: 'acme-notes',
        loaded: true,
        browserBundle: { gzipBytes: expect.any(Number) },
      },
      {
        slug: 'acme-crm',
        entry: 'src/acme-crm/integration.ts',
        definitionSlug: 'acme-crm',
        loaded: true,
        browserBundle: { gzipBytes: expect.any(Number) },
      },
    ]);
    expect(envelope.data?.schema).toEqual({ bundled: '0.5.0', project: '0.5.0', skewed: false });
  });

  it('prints readable text without colour when stdout is not a terminal', async () => {
    const result = await run(['validate'], { cwd: EXAMPLE_PROJECT });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Checked 2 integrations: acme-notes, acme-crm');
    expect(result.stdout).toContain('No findings.');
    expect(result.stdout).toMatch(/^acme-notes: browser bundle: \d+\.\d KB compressed$/m);
    expect(result.stdout).not.toContain('\u001b[');
    // The long step reports itself on stderr, as a plain line off a terminal.
    expect(result.stderr).toContain('Loading 2 integrations...');
  });

  it('colours with FORCE_COLOR, and NO_COLOR wins over it', async () => {
    const forced = await run(['validate'], { cwd: EXAMPLE_PROJECT, env: cleanEnv({ FORCE_COLOR: '1' }) });
    expect(forced.stdout).toContain('\u001b[32mNo findings.\u001b[39m');
    const both = await run(['validate'], {
      cwd: EXAMPLE_PROJECT,
      env: cleanEnv({ FORCE_COLOR: '1', NO_COLOR: '1' }),
    });
    expect(both.stdout).toContain('No findings.');
    expect(both.stdout).not.toContain('\u001b[');
  });
});

describe('definition.schema', () => {
  const invalid = `{ slug: 'acme', components: { widgets: [${widget('Bad_Widget')}] }, tools: [{ name: 'SyncNotes', description: 'Sync' }] }`;

  it('reports one error per problem of the definition error, with its path, and exits 3', async () => {
    const dir = project(projectFiles({ acme: entrySource(invalid) }));
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(3);
    expect(envelope.error?.code).toBe('validation');
    expect(envelope.error?.message).toBe('2 error findings and 0 warnings.');
    const findings = findingsOf(envelope.data, 'definition.schema');
    expect(findings.map((item) => item.path)).toEqual(['components.widgets.0.id', 'tools.0.name']);
    for (const item of findings) {
      expect(item.severity).toBe('error');
      expect(item.hint).toMatch(/^Fix /);
    }
    expect(findings[0]?.message).toContain('widget id "Bad_Widget" is not kebab-case');
    expect(findings[1]?.message).toContain('"SyncNotes"');
  });

  it('reports the same problems for a plain object export, checked by the bundled schema', async () => {
    const dir = project(projectFiles({ acme: `export default ${invalid};\n` }));
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(3);
    expect(findingsOf(envelope.data, 'definition.schema').map((item) => item.path)).toEqual([
      'components.widgets.0.id',
      'tools.0.name',
    ]);
  });
});

describe('definition.load', () => {
  const cases: [string, Record<string, string>, { path: string | RegExp; message: RegExp; hint: RegExp }][] =
    [
      [
        'a syntax error',
        { 'src/acme/integration.ts': "export default { slug: 'acme'\n" },
        {
          path: /^src\/acme\/integration\.ts:2:\d+$/,
          message: /does not compile: Expected "}"/,
          hint: /^Fix the error at/,
        },
      ],
      [
        'no default export',
        { 'src/acme/integration.ts': "export const definition = { slug: 'acme' };\n" },
        {
          path: 'src/acme/integration.ts',
          message: /has no default export \(it exports "definition"\)/,
          hint: /^Export the definition/,
        },
      ],
      [
        'an error thrown while importing',
        {
          'src/acme/integration.ts':
            "import { settings } from './settings';\nexport default { slug: settings.slug };\n",
          'src/acme/settings.ts':
            "const raw = undefined as unknown as string;\nexport const settings = JSON.parse(raw ?? '{');\n",
        },
        {
          path: /^src\/acme\/settings\.ts:2:\d+$/,
          message: /threw while importing: SyntaxError/,
          hint: /^Fix the error thrown at src\/acme\/settings\.ts:2/,
        },
      ],
      [
        'a package that is not installed',
        {
          'src/acme/integration.ts':
            "import { x } from 'not-installed-anywhere';\nexport default { slug: x };\n",
        },
        {
          path: /^src\/acme\/integration\.ts:1:\d+$/,
          message: /Could not resolve "not-installed-anywhere"/,
          hint: /^Install the project's dependencies/,
        },
      ],
      [
        'an entry that does not exist',
        {},
        {
          path: 'src/acme/integration.ts',
          message: /the entry "src\/acme\/integration\.ts" of "acme" does not exist/,
          hint: /^Create src\/acme\/integration\.ts/,
        },
      ],
    ];

  it.each(cases)('reports %s as an error finding and exits 3', async (_name, files, expected) => {
    const dir = project({
      ...projectFiles({}),
      'platform.json': '{ "integrations": [{ "slug": "acme", "entry": "src/acme/integration.ts" }] }',
      ...files,
    });
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(3);
    const findings = findingsOf(envelope.data, 'definition.load');
    expect(findings).toHaveLength(1);
    const [item] = findings;
    expect(item?.severity).toBe('error');
    if (typeof expected.path === 'string') expect(item?.path).toBe(expected.path);
    else expect(item?.path).toMatch(expected.path);
    expect(item?.message).toMatch(expected.message);
    expect(item?.hint).toMatch(expected.hint);
    expect(envelope.data?.integrations[0]?.loaded).toBe(false);
  });

  it('keeps partner console output off stdout, so the JSON envelope stays one value', async () => {
    const dir = project(
      projectFiles({ acme: `console.log('hello from the definition');\nexport default { slug: 'acme' };\n` }),
    );
    const { result, envelope } = await validate(dir);
    expect(envelope.ok).toBe(true);
    expect(result.stderr).toContain('hello from the definition');
  });
});

describe('project findings', () => {
  const clean = entrySource(`{ slug: 'acme' }`);

  it('project.host-compiler-rules: a warning when tsconfig.json lacks noUncheckedIndexedAccess; warnings alone exit 0', async () => {
    const dir = project({
      ...projectFiles({ acme: clean }),
      'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
    });
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(0);
    expect(envelope.ok).toBe(true);
    expect(envelope.data?.findings).toEqual([
      {
        id: 'project.host-compiler-rules',
        severity: 'warning',
        message: 'tsconfig.json does not enable noUncheckedIndexedAccess in compilerOptions',
        path: 'tsconfig.json',
        hint: expect.stringMatching(/^Set "noUncheckedIndexedAccess": true in compilerOptions/),
      },
    ]);
  });

  it('project.host-compiler-rules: follows extends (with comments in the JSON)', async () => {
    const dir = project({
      ...projectFiles({ acme: clean }),
      'tsconfig.base.json':
        '{\n  // shared\n  "compilerOptions": { "noUncheckedIndexedAccess": true, },\n}\n',
      'tsconfig.json': '{ "extends": "./tsconfig.base.json", "compilerOptions": { "strict": true } }\n',
    });
    const { envelope } = await validate(dir);
    expect(envelope.data?.findings).toEqual([]);
  });

  it('project.slug-agreement: the manifest slug differs from the definition slug', async () => {
    const dir = project({
      ...projectFiles({ 'acme-notes': entrySource(`{ slug: 'acme-note' }`) }),
    });
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(3);
    expect(findingsOf(envelope.data, 'project.slug-agreement')).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: 'slug',
        message:
          'platform.json lists "acme-notes" (entry src/acme-notes/integration.ts), but its definition declares slug "acme-note"',
      }),
    ]);
  });

  it('docs/missing-file: a warning for each listed local doc that does not exist (URLs are not checked)', async () => {
    const dir = project(
      projectFiles(
        { acme: clean },
        {
          docs: ['docs/setup.md', 'docs/missing.md', 'https://acme.example/help'],
          files: { 'docs/setup.md': '# Setup\n' },
        },
      ),
    );
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(0);
    expect(envelope.data?.findings).toEqual([
      {
        id: 'docs/missing-file',
        severity: 'warning',
        message: 'the doc "docs/missing.md" listed in platform.json does not exist',
        path: 'docs/missing.md',
        hint: 'Create docs/missing.md, or remove it from docs in platform.json.',
      },
    ]);
  });

  const listed = (fields: Record<string, unknown>, files: Record<string, string> = {}) =>
    project({
      ...projectFiles({ acme: clean }, { files }),
      'platform.json': `${JSON.stringify({ integrations: [{ slug: 'acme', entry: 'src/acme/integration.ts', ...fields }] })}\n`,
    });

  it('project.listing: good name, description, icon and docs pass', async () => {
    const dir = listed(
      { name: 'Acme', description: 'Notes for Acme.', icon: 'note-sticky', docs: './docs/acme.md' },
      { 'docs/acme.md': '# Acme\n' },
    );
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(0);
    expect(envelope.data?.findings).toEqual([]);
  });

  it('project.listing: an error per bad field, with its path and a fix', async () => {
    const dir = listed(
      { name: 'n'.repeat(81), description: '', icon: 'house-chimney-heart', docs: 'docs/big.md' },
      { 'docs/big.md': 'x'.repeat(64 * 1024 + 1) },
    );
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(3);
    expect(findingsOf(envelope.data, 'project.listing')).toEqual([
      {
        id: 'project.listing',
        severity: 'error',
        message: 'platform.json: acme: "name" must be a string of 1 to 80 characters (got 81 characters)',
        path: 'platform.json integrations.0.name',
        hint: expect.stringMatching(/^Give "name" the name people see/),
      },
      expect.objectContaining({ path: 'platform.json integrations.0.description' }),
      expect.objectContaining({
        path: 'platform.json integrations.0.icon',
        message: expect.stringContaining('"house-chimney-heart", which is not in the free icon set'),
        hint: 'Use the free icon "house-chimney" instead, or pick another from the free set.',
      }),
      expect.objectContaining({
        path: 'platform.json integrations.0.docs',
        message: expect.stringContaining('docs/big.md is 65 KiB; the listing docs may be at most 64 KiB'),
      }),
    ]);
  });

  it('project.listing: docs outside the project or missing', async () => {
    for (const [docs, message] of [
      ['../outside.md', 'must be a relative path to a Markdown file (.md) inside the project'],
      ['docs/none.md', 'names docs/none.md, but the project has no such file'],
    ] as const) {
      const { envelope } = await validate(listed({ docs }));
      expect(findingsOf(envelope.data, 'project.listing')).toEqual([
        expect.objectContaining({ message: expect.stringContaining(message) }),
      ]);
    }
  });

  it('project.components: a tile and an activation form inside the project pass', async () => {
    const component = 'export default function C() { return null; }\n';
    const dir = listed(
      { tile: './src/acme/Tile.tsx', activationForm: 'src/acme/Form.jsx' },
      { 'src/acme/Tile.tsx': component, 'src/acme/Form.jsx': component },
    );
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(0);
    expect(envelope.data?.findings).toEqual([]);
  });

  it('project.components: an error per bad tile or activation form, with its path and a fix', async () => {
    const dir = listed({ tile: '../outside/Tile.tsx', activationForm: 'src/acme/Missing.tsx' });
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(3);
    expect(findingsOf(envelope.data, 'project.components')).toEqual([
      {
        id: 'project.components',
        severity: 'error',
        message:
          'platform.json: acme: "tile" is "../outside/Tile.tsx"; it must be a relative path inside the project to a module (.tsx, .ts, .jsx, .js)',
        path: 'platform.json integrations.0.tile',
        hint: expect.stringMatching(
          /^Set "tile" to the project's module whose default export is the component/,
        ),
      },
      {
        id: 'project.components',
        severity: 'error',
        message:
          'platform.json: acme: "activationForm" names src/acme/Missing.tsx, but the project has no such file',
        path: 'platform.json integrations.0.activationForm',
        hint: 'Create src/acme/Missing.tsx with the component as its default export, or fix "activationForm".',
      },
    ]);
  });

  it('project.manifest: platform.json that is not JSON is an error finding', async () => {
    const dir = project({ ...projectFiles({ acme: clean }), 'platform.json': '{ "integrations": [ }' });
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(3);
    expect(findingsOf(envelope.data, 'project.manifest')[0]?.message).toMatch(
      /^platform\.json: \(root\): is not valid JSON/,
    );
  });

  it('exits 1 with project_not_found where there is no platform.json', async () => {
    const dir = tempDir();
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(1);
    expect(envelope.error).toEqual({
      code: 'project_not_found',
      message: `No platform.json in ${dir}.`,
      hint: expect.stringContaining('platform init'),
    });
  });
});

describe('collisions across the integrations of one manifest', () => {
  it('collision.widget-id: two integrations declare the same widget id', async () => {
    const dir = project(
      projectFiles({
        'acme-notes': entrySource(
          `{ slug: 'acme-notes', components: { widgets: [${widget('shared-board')}] } }`,
        ),
        'acme-crm': entrySource(
          `{ slug: 'acme-crm', components: { widgets: [${widget('acme-crm-list')}, ${widget('shared-board')}] } }`,
        ),
      }),
    );
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(3);
    expect(envelope.data?.findings).toEqual([
      expect.objectContaining({
        id: 'collision.widget-id',
        severity: 'error',
        path: 'components.widgets.1.id',
        message:
          'acme-crm: widget id "shared-board" is also declared by "acme-notes" (src/acme-notes/integration.ts); widget ids are global',
      }),
    ]);
  });

  it('collision.tool-name: acme-notes + sync and acme + notes_sync both become acme_notes_sync', async () => {
    const dir = project(
      projectFiles({
        'acme-notes': entrySource(
          `{ slug: 'acme-notes', tools: [{ name: 'sync', description: 'Sync', handler: () => null }, { name: 'search', description: 'Search', handler: () => null }] }`,
        ),
        acme: entrySource(
          `{ slug: 'acme', tools: [{ name: 'notes_sync', description: 'Sync notes', handler: () => null }, { name: 'search', description: 'Search', handler: () => null }] }`,
        ),
      }),
    );
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(3);
    expect(envelope.data?.findings).toEqual([
      expect.objectContaining({
        id: 'collision.tool-name',
        severity: 'error',
        path: 'tools.0.name',
        message:
          'acme: tool "notes_sync" becomes "acme_notes_sync", the same name as tool "sync" of "acme-notes"',
      }),
    ]);
  });
});

describe('tools as models see them', () => {
  it('tool.name-too-long is an error; tool.no-handler and tool.input-schema are warnings', async () => {
    const long = 'a'.repeat(60);
    const dir = project(
      projectFiles({
        acme: `import { defineIntegration } from '@platform/sdk/integration';
import { z } from 'zod';
export default defineIntegration({
  slug: 'acme',
  tools: [
    { name: '${long}', description: 'Long', handler: () => null },
    { name: 'later', description: 'No handler yet' },
    { name: 'either', description: 'A union', input: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]), handler: () => null },
    { name: 'text', description: 'A string', input: z.string(), handler: () => null },
    { name: 'fine', description: 'An object', input: z.object({ q: z.string() }), output: z.object({ n: z.number() }), handler: () => ({ n: 1 }) },
    { name: 'listed', description: 'A list out', output: z.array(z.string()), handler: () => [] },
  ],
});
`,
      }),
    );
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(3);
    const ids = (envelope.data?.findings ?? []).map((item) => [item.id, item.severity, item.path]);
    expect(ids).toEqual([
      ['tool.name-too-long', 'error', 'tools.0.name'],
      ['tool.no-handler', 'warning', 'tools.1.handler'],
      ['tool.input-schema', 'warning', 'tools.2.input'],
      ['tool.input-schema', 'warning', 'tools.3.input'],
      ['tool.output-schema', 'warning', 'tools.5.output'],
    ]);
    const [tooLong, , union, text, listed] = envelope.data?.findings ?? [];
    expect(tooLong?.message).toContain(`becomes "acme_${long}", 65 characters`);
    expect(union?.message).toContain('root "anyOf"');
    expect(text?.message).toContain('root is "string"');
    expect(listed?.message).toContain('output schema\'s root is "array"');
  });
});

describe('icons/pro-only', () => {
  it('warns for icons outside the free set, naming the closest free icon when there is one', async () => {
    const dir = project(
      projectFiles({
        acme: entrySource(
          `{ slug: 'acme', components: { widgets: [${widget('acme-a', 'house')}, ${widget('acme-b', 'hous')}, ${widget('acme-c', 'house-chimney-heart')}, ${widget('acme-d', 'sparkles')}] } }`,
        ),
      }),
    );
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(0);
    const findings = findingsOf(envelope.data, 'icons/pro-only');
    expect(findings.map((item) => [item.severity, item.path, item.hint])).toEqual([
      [
        'warning',
        'components.widgets.1.icon',
        'Use the free icon "house" instead, or pick another from the free set.',
      ],
      [
        'warning',
        'components.widgets.2.icon',
        'Use the free icon "house-chimney" instead, or pick another from the free set.',
      ],
      [
        'warning',
        'components.widgets.3.icon',
        'Pick an icon from the free set (Font Awesome Free: solid, regular or brands) and use its kebab-case name.',
      ],
    ]);
    expect(findings[0]?.message).toBe(
      'acme: widget "acme-b" uses icon "hous", which is not in the free icon set (Font Awesome Free)',
    );
  });
});

describe('schema skew', () => {
  // An entry that leaves a mark when imported: skew must stop validate before any definition loads.
  const marking = `import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('../../loaded.marker', import.meta.url), '');\nexport default { slug: 'acme' };\n`;

  function skewedProject(layout: Record<string, string>): string {
    const dir = tempDir();
    writeFiles(dir, { ...projectFiles({ acme: marking }), ...layout });
    return dir;
  }

  it('fails with precondition_failed (exit 9) before loading anything when the project schema is newer', async () => {
    const dir = skewedProject({
      'node_modules/@platform/integration-schema/package.json':
        '{ "name": "@platform/integration-schema", "version": "0.6.0" }',
    });
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(9);
    expect(envelope.error?.code).toBe('precondition_failed');
    expect(envelope.error?.message).toBe(
      "This project's @platform/integration-schema is 0.6.0, newer than the 0.5.0 bundled with @platform/cli 0.4.0; findings would be unreliable, so no definition was loaded.",
    );
    expect(envelope.error?.hint).toMatch(/^Run `npx @platform\/cli@latest upgrade`/);
    expect(existsSync(join(dir, 'loaded.marker'))).toBe(false);
  });

  it("reads the schema the project's sdk uses before a top-level copy", async () => {
    const dir = skewedProject({
      'node_modules/@platform/integration-schema/package.json': '{ "version": "0.5.0" }',
      'node_modules/@platform/sdk/package.json': '{ "version": "0.6.1" }',
      'node_modules/@platform/sdk/node_modules/@platform/integration-schema/package.json':
        '{ "version": "0.6.1" }',
    });
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(9);
    expect(envelope.error?.message).toContain('is 0.6.1, newer than the 0.5.0');
  });

  // A project still on the 0.4 train (or older) validates with this CLI: only a newer schema is skew.
  it.each(['0.4.0', '0.4.7', '0.3.2'])(
    'loads a project whose schema (%s) is older than the bundled one',
    async (version) => {
      const dir = skewedProject({
        'node_modules/@platform/integration-schema/package.json': `{ "version": "${version}" }`,
      });
      const { result, envelope } = await validate(dir);
      expect(result.code).toBe(0);
      expect(envelope.data?.schema).toEqual({ bundled: '0.5.0', project: version, skewed: false });
      expect(existsSync(join(dir, 'loaded.marker'))).toBe(true);
    },
  );

  it('prints the error and its hint on stderr in human mode', async () => {
    const dir = skewedProject({
      'node_modules/@platform/integration-schema/package.json': '{ "version": "0.6.0" }',
      'pnpm-lock.yaml': 'lockfileVersion: 9.0\n',
    });
    const result = await run(['validate'], { cwd: dir });
    expect(result.code).toBe(9);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Error [precondition_failed] This project');
    expect(result.stderr).toContain('Hint: Run `pnpm dlx @platform/cli@latest upgrade`');
  });
});

describe('browser bundles', () => {
  const withWidget = (widgetModule: string) =>
    project(
      projectFiles(
        {
          'acme-notes': entrySource(
            "{ slug: 'acme-notes', components: { widgets: [{ id: 'acme-notes-board', name: 'Board', component: Board }] } }",
            "import { Board } from './Board.js';",
          ),
        },
        { files: { 'src/acme-notes/Board.ts': widgetModule } },
      ),
    );

  it('bundle.browser-size: an error over 128 KB compressed, naming the size, the limit and the fix; --json carries the size', async () => {
    // 300 KB that gzip cannot shrink much.
    const blob = randomBytes(225 * 1024).toString('base64');
    const dir = withWidget(`const BLOB = ${JSON.stringify(blob)};\nexport const Board = () => BLOB;\n`);
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(3);
    const [found, ...others] = findingsOf(envelope.data, 'bundle.browser-size');
    expect(others).toEqual([]);
    expect(found).toMatchObject({ severity: 'error', path: 'src/acme-notes/integration.ts' });
    expect(found!.message).toMatch(/the browser bundle is \d{3}\.\d KB compressed, over the 128\.0 KB limit/);
    expect(found!.hint).toMatch(/^Keep widgets small/);
    const gzipBytes = envelope.data?.integrations[0]?.browserBundle?.gzipBytes ?? 0;
    expect(gzipBytes).toBeGreaterThan(128 * 1024);
    const human = await run(['validate'], { cwd: dir });
    expect(human.stdout).toContain(
      `acme-notes: browser bundle: ${(gzipBytes / 1024).toFixed(1)} KB compressed`,
    );
  });

  it('bundle.browser-build: a widget that does not build for the browser, with the file and line', async () => {
    // Fine in Node (validate loads the definition there), not in a browser.
    const dir = withWidget(
      "import { readFileSync } from 'node:fs';\nexport const Board = () => String(readFileSync);\n",
    );
    const { result, envelope } = await validate(dir);
    expect(result.code).toBe(3);
    expect(findingsOf(envelope.data, 'bundle.browser-build')).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: 'src/acme-notes/Board.ts:1',
        message: expect.stringContaining('node:fs'),
      }),
    ]);
    expect(envelope.data?.integrations[0]?.browserBundle).toBeNull();
  });

  it("measures examples/acme-notes as the host's install and gate do (same bytes within 1%)", async () => {
    const example = fileURLToPath(new URL('../../../examples/acme-notes/', import.meta.url));
    const { result, envelope } = await validate(example);
    expect(result.code).toBe(0);
    const cli = envelope.data?.integrations.find((item) => item.slug === 'acme-notes')?.browserBundle
      ?.gzipBytes;
    const host = await buildBrowserBundle(join(example, 'src/acme-notes/integration.ts'), {
      confineTo: [example],
    });
    expect(cli).toBeGreaterThan(0);
    expect(Math.abs(cli! - host.gzipBytes) / host.gzipBytes).toBeLessThanOrEqual(0.01);
  });
});
