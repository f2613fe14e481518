import { NEXT_INTL_OVERRIDES, NEXT_INTL_VERSION, PLATFORM_PINS } from '../../project/pins.js';
import { isDocUrl } from '../../project/readManifest.js';

/** What the scaffold is made of. */
export interface ScaffoldOptions {
  /** The integration's slug (kebab-case): package name, manifest slug, definition slug, file names. */
  readonly slug: string;
  /** Docs for the manifest: local paths (created) and URLs (recorded). */
  readonly docs: readonly string[];
  /** The Platform host's registry (`https://host.example/registry/`), for `@platform/*` in `.npmrc`. */
  readonly registry: string;
}

/**
 * Third-party versions of the scaffold. vitest stays on 4 (5 needs Node 22), TypeScript on 5,
 * Biome on the newest line whose platform binaries the registry serves.
 */
export const SCAFFOLD_VERSIONS = {
  zod: '^4.6.7',
  react: '^19.3.1',
  'react-dom': '^19.3.1',
  '@tanstack/react-query': '^5.108.0',
  vitest: '^4.1.12',
  typescript: '^5.9.3',
  '@types/react': '^19.3.0',
  '@biomejs/biome': '2.5.15',
} as const;

const API = 'https://api.example.com';

/** `acme-notes` -> `Acme Notes`. */
export function displayName(slug: string): string {
  return slug
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');
}

/** The widget component's name: `acme-notes` -> `AcmeNotesWidget` (a leading digit gets a prefix). */
export function widgetComponentName(slug: string): string {
  const pascal = displayName(slug).replaceAll(' ', '');
  return `${/^[0-9]/.test(pascal) ? 'Integration' : ''}${pascal}Widget`;
}

const json = (value: unknown) => `${formatJson(value, '')}\n`;

// JSON laid out as Biome (and Prettier) format it, so the scaffold passes its own lint preset:
// objects expanded, arrays of primitives on one line when they fit in 110 columns.
function formatJson(value: unknown, indent: string, prefix = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((item) => item === null || typeof item !== 'object')) {
      const inline = `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
      if (indent.length + prefix.length + inline.length + 1 <= 110) return inline;
    }
    return `[\n${value.map((item) => `${inner}${formatJson(item, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([key, item]) => {
      const head = `${JSON.stringify(key)}: `;
      return `${inner}${head}${formatJson(item, inner, head)}`;
    });
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/**
 * Every file of a new project, by path relative to the project root. Pure: `init` writes them.
 * The docs' own files are included for local doc paths.
 */
export function scaffoldFiles(options: ScaffoldOptions): Record<string, string> {
  const { slug } = options;
  const name = displayName(slug);
  const component = widgetComponentName(slug);
  const widgetId = `${slug}-items`;
  const entry = `src/${slug}/integration.ts`;
  const files: Record<string, string> = {
    'package.json': json({
      name: slug,
      version: '0.1.0',
      private: true,
      type: 'module',
      engines: { node: '>=20.19' },
      scripts: {
        validate: 'platform validate',
        test: 'platform test',
        dev: 'platform dev',
        lint: 'biome check .',
        typecheck: 'tsc --noEmit',
      },
      dependencies: {
        '@platform/sdk': PLATFORM_PINS['@platform/sdk'],
        '@platform/ui': PLATFORM_PINS['@platform/ui'],
        '@tanstack/react-query': SCAFFOLD_VERSIONS['@tanstack/react-query'],
        'next-intl': NEXT_INTL_VERSION,
        react: SCAFFOLD_VERSIONS.react,
        'react-dom': SCAFFOLD_VERSIONS['react-dom'],
        zod: SCAFFOLD_VERSIONS.zod,
      },
      devDependencies: {
        '@biomejs/biome': SCAFFOLD_VERSIONS['@biomejs/biome'],
        '@platform/cli': PLATFORM_PINS['@platform/cli'],
        '@platform/harness': PLATFORM_PINS['@platform/harness'],
        '@types/react': SCAFFOLD_VERSIONS['@types/react'],
        typescript: SCAFFOLD_VERSIONS.typescript,
        vitest: SCAFFOLD_VERSIONS.vitest,
      },
      overrides: NEXT_INTL_OVERRIDES,
      allowScripts: { esbuild: true, '@parcel/watcher': false, '@swc/core': false },
    }),
    'platform.json': json({
      integrations: [{ slug, entry }],
      ...(options.docs.length > 0 ? { docs: options.docs } : {}),
    }),
    'tsconfig.json': json({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        module: 'ESNext',
        moduleResolution: 'Bundler',
        jsx: 'react-jsx',
        strict: true,
        noUncheckedIndexedAccess: true,
        isolatedModules: true,
        skipLibCheck: true,
        noEmit: true,
      },
      include: ['src', 'harness.config.ts'],
    }),
    'biome.json': json(BIOME_CONFIG),
    'pnpm-workspace.yaml': PNPM_WORKSPACE,
    '.gitignore': GITIGNORE,
    '.npmrc': npmrc(options.registry),
    'README.md': readme(slug, name, options.registry),
    'harness.config.ts': harnessConfig(slug, name, widgetId),
    [entry]: integration(slug, name, component, widgetId),
    [`src/${slug}/integration.test.ts`]: integrationTest(),
    [`src/${slug}/widgets/${component}.tsx`]: widget(name, component),
  };
  for (const doc of options.docs) {
    if (!isDocUrl(doc)) files[doc] = docFile(doc, name);
  }
  return files;
}

const I18NEXT =
  'Platform widgets translate through next-intl (the @platform/ui translation component); import from next-intl, never i18next.';

// The lint preset: Biome's recommended rules, plus the ban on i18next the 0.4 train requires.
const BIOME_CONFIG = {
  $schema: './node_modules/@biomejs/biome/configuration_schema.json',
  files: { includes: ['**', '!**/node_modules', '!**/dist', '!**/.platform'] },
  formatter: { enabled: true, indentStyle: 'space', indentWidth: 2, lineWidth: 110 },
  javascript: { formatter: { quoteStyle: 'single' } },
  linter: {
    enabled: true,
    rules: {
      preset: 'recommended',
      style: {
        noRestrictedImports: {
          level: 'error',
          options: {
            paths: { i18next: I18NEXT, 'react-i18next': I18NEXT, 'next-i18next': I18NEXT },
            patterns: [
              { group: ['i18next/**', 'i18next-*', 'react-i18next/**', 'next-i18next/**'], message: I18NEXT },
            ],
          },
        },
      },
    },
  },
};

const PNPM_WORKSPACE = `# pnpm reads its settings from this file (pnpm 10 and later).
# Install scripts run only for approved packages: esbuild checks its platform binary (the
# platform CLI compiles definitions with it). The other two ship prebuilt binaries.
onlyBuiltDependencies:
  - esbuild
ignoredBuiltDependencies:
  - '@parcel/watcher'
  - '@swc/core'
# The same approvals as pnpm 11 spells them.
allowBuilds:
  esbuild: true
  '@parcel/watcher': false
  '@swc/core': false
# next-intl ${NEXT_INTL_VERSION} asks for use-intl@^${NEXT_INTL_VERSION}; keep it on the same version.
overrides:
${Object.entries(NEXT_INTL_OVERRIDES)
  .map(([name, version]) => `  ${name}: ${version}`)
  .join('\n')}
`;

const GITIGNORE = `node_modules/
dist/
coverage/
# platform CLI: local secrets (never commit them), the generated harness shell, the last test report
.platform/local-secrets.json
.platform/shell/
.platform/test-report.json
`;

// npm and pnpm both read it. The public registry's @platform scope is someone else's packages.
function npmrc(registry: string): string {
  return `# @platform/* installs from the Platform host, never from the public npm registry.
@platform:registry=${registry}
`;
}

function readme(slug: string, name: string, registry: string): string {
  return `# ${name}

A Platform integration (\`${slug}\`).

\`@platform/*\` packages install from the Platform host's registry, ${registry} (set in \`.npmrc\`).

\`\`\`sh
npm install            # or: pnpm install
npx platform validate  # check the definition, tsconfig, docs and icons
npx platform test      # run the tests, then list each failure
npx platform dev       # open the harness (fixtures in harness.config.ts)
\`\`\`

- \`platform.json\`: the integrations of this project and their docs.
- \`src/${slug}/integration.ts\`: the definition (widget, action, storage).
- \`src/${slug}/integration.test.ts\`: tests against a mock context.
- \`harness.config.ts\`: the harness entry, with fixtures for the \`default\`, \`empty\` and \`error\` variants.
- \`.platform/local-secrets.json\`: credentials for the harness's live mode; git-ignored, never commit it.
`;
}

function integration(slug: string, name: string, component: string, widgetId: string): string {
  return `import { defineIntegration, PublicActionError } from '@platform/sdk/integration';
import { z } from 'zod';
import { ${component} } from './widgets/${component}';

const API = '${API}';

/** An item as the API returns it. */
const Item = z.object({ id: z.string(), title: z.string() });

export default defineIntegration({
  slug: '${slug}',
  egress: [API],
  components: {
    widgets: [
      {
        id: '${widgetId}',
        name: '${name}',
        component: ${component},
        icon: 'list-check',
        isCollapsible: true,
        isPinnable: true,
      },
    ],
  },
  storage: {
    account: {
      settings: z.object({ workspace: z.string().min(1) }),
      'cache/items': z.array(Item),
    },
  },
  actions: {
    'list-items': {
      description: 'List the items of the workspace chosen in the settings',
      input: z.object({ limit: z.number().int().min(1).max(100).optional() }),
      output: z.object({ items: z.array(Item) }),
      handler: async (ctx, input) => {
        const settings = await ctx.storage.account.get('settings');
        if (settings === undefined) throw new PublicActionError('Choose a workspace in the settings first.');
        const workspace = encodeURIComponent(settings.workspace);
        const url = \`\${API}/v1/workspaces/\${workspace}/items?limit=\${input.limit ?? 20}\`;
        const response = await ctx.fetch(url);
        if (!response.ok) throw new PublicActionError('The service is unavailable; try again in a minute.');
        const items = z.array(Item).parse(await response.json());
        await ctx.storage.account.set('cache/items', items);
        return { items };
      },
    },
  },
});
`;
}

function integrationTest(): string {
  return `import { invokeAction } from '@platform/sdk/runtime';
import { createMockContext } from '@platform/sdk/testing';
import { describe, expect, it } from 'vitest';
import definition from './integration';

const items = [
  { id: 'i1', title: 'Plan the launch' },
  { id: 'i2', title: 'Write the changelog' },
];

describe('list-items', () => {
  it('returns the items of the workspace in the settings, and caches them', async () => {
    const ctx = createMockContext(definition, {
      storage: { account: { settings: { workspace: 'w1' } } },
      fetchHandlers: [
        { match: 'GET ${API}/v1/workspaces/w1/items', respond: () => Response.json(items) },
      ],
    });
    const result = await invokeAction(definition, 'list-items', '{"limit":5}', ctx, { mode: 'production' });
    expect(result).toEqual({ ok: true, data: { items } });
    expect(await ctx.storage.account.get('cache/items')).toEqual(items);
  });

  it('asks for a workspace before it calls the API', async () => {
    const ctx = createMockContext(definition);
    const result = await invokeAction(definition, 'list-items', '{}', ctx, { mode: 'production' });
    expect(result).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Choose a workspace in the settings first.', status: 400 },
    });
    expect(ctx.mock.requests).toEqual([]);
  });
});
`;
}

function widget(name: string, component: string): string {
  return `/** What the widget shows. */
export interface WidgetProps {
  readonly items?: readonly { readonly id: string; readonly title: string }[];
}

/** ${name}: the items of the connected workspace. */
export function ${component}({ items = [] }: WidgetProps) {
  if (items.length === 0) return <p>No items yet.</p>;
  return (
    <ul>
      {items.map((item) => (
        <li key={item.id}>{item.title}</li>
      ))}
    </ul>
  );
}
`;
}

function harnessConfig(slug: string, name: string, widgetId: string): string {
  return `import { asHarnessDefinition, defineHarnessConfig, harnessWidgetsFromDefinition } from '@platform/harness';
import definition from './src/${slug}/integration';

// Every request the integration makes in fixtures mode is answered from here, per variant.
const listItems = 'GET ${API}/v1/workspaces/:workspace/items';

export const harnessIntegrations = defineHarnessConfig([
  {
    slug: '${slug}',
    name: '${name}',
    description: 'Lists the items of a workspace.',
    definition: asHarnessDefinition(definition),
    widgets: harnessWidgetsFromDefinition(definition, {
      '${widgetId}': { width: 'full' },
    }),
    triggerMocks: { storage: { account: { settings: { workspace: 'demo' } } } },
    fixtures: {
      default: [
        {
          request: listItems,
          response: [
            { id: 'i1', title: 'Plan the launch' },
            { id: 'i2', title: 'Write the changelog' },
          ],
        },
      ],
      empty: [{ request: listItems, response: [] }],
      error: [{ request: listItems, status: 503, response: { error: 'unavailable' } }],
    },
  },
]);
`;
}

function docFile(path: string, name: string): string {
  const base = path.split('/').pop() ?? path;
  const title = base.replace(/\.[^.]+$/, '').replace(/[-_]+/g, ' ');
  return `# ${name}: ${title.charAt(0).toUpperCase()}${title.slice(1)}\n\nWrite this page for the people who set up ${name}.\n`;
}
