// The import check `npm run check:imports` runs in CI (.ci/run): no import circle anywhere in the
// packages, and the host's layers as ARCHITECTURE.md draws them, each importing only the layers
// below it. No exception list: a new circle or an upward import fails the build.

/**
 * The host's layers, top first (folders and files of packages/host/src). A layer may import its
 * own and the layers below; the last layer is the shared base (database, gate library, registry
 * folder, bundler, secrets, security events) that imports no other layer.
 */
const HOST_LAYERS = [
  ['bin.ts'],
  ['cli/'],
  ['createHost.ts', 'index.ts'],
  ['createHostApp.ts'],
  ['routes/', 'mcp/'],
  ['publish/'],
  ['events/'],
  ['install/', 'oauth/', 'connection/', 'capabilities/'],
  ['store/', 'runtime/', 'cache/', 'rateLimit.ts'],
  ['db/', 'gate/', 'registry/', 'bundle/', 'security/', 'secrets/', 'singleFlight.ts'],
];

const HOST = '^packages/host/src/';
const literal = (text) => text.replace(/[.]/g, '\\.');
const pathOf = (entries) =>
  `${HOST}(${entries.map((entry) => (entry.endsWith('/') ? literal(entry) : `${literal(entry)}$`)).join('|')})`;

const layerRules = HOST_LAYERS.slice(1).map((layer, index) => {
  const above = HOST_LAYERS.slice(0, index + 1).flat();
  return {
    name: `host-layer-${layer[0].replace(/[/.]/g, '')}`,
    severity: 'error',
    comment: `${layer.join(', ')} may import only its own layer and those below it (ARCHITECTURE.md, "The host's layers"), not ${above.join(', ')}.`,
    from: { path: pathOf(layer) },
    to: { path: pathOf(above) },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle is a seam in the wrong place: break it where it belongs.',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'host-runner-alone',
      severity: 'error',
      comment:
        'The runner (packages/host/src/runner/) is the child process that runs partner code: it imports nothing of the host outside its folder.',
      from: { path: `${HOST}runner/` },
      to: { path: `${HOST}(?!runner/)` },
    },
    {
      name: 'host-services-as-type',
      severity: 'error',
      comment:
        'HostServices.ts is the services every layer is handed: below createHost it is imported as a type only (the composition root builds them).',
      from: { path: pathOf(HOST_LAYERS.slice(4).flat()) },
      to: { path: `${HOST}HostServices\\.ts$`, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Partner projects (examples/) are outside: a widget imports its definition's type for typed
    // hooks (`import type definition from '../integration.js'`), which the definition's widget list closes.
    exclude: { path: '(node_modules|/dist/|/test/fixtures/)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      conditionNames: ['@platform/source', 'import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
    },
  },
};
