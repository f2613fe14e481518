import { describe, expect, it } from 'vitest';
import { type MetafileLike, serverSideImports } from './definitionWidgetsOnly.js';

// A first build's metafile of the example's shape: the definition imports zod, the sdk, its
// schemas and sync module, two widgets (one .tsx using React, one plain .ts) and a constant.
const metafile: MetafileLike = {
  inputs: {
    'src/notes/integration.ts.browser.js': {
      imports: [{ path: 'src/notes/integration.ts', original: './integration.ts' }],
    },
    'src/notes/integration.ts': {
      imports: [
        { path: 'node_modules/zod/index.js', original: 'zod' },
        { path: 'packages/sdk/src/integration/index.ts', original: '@platform/sdk/integration' },
        { path: 'src/notes/schemas.ts', original: './schemas.js' },
        { path: 'src/notes/sync.ts', original: './sync.js' },
        { path: 'src/notes/Board.tsx', original: './Board.js' },
        { path: 'src/notes/Plain.ts', original: './Plain.js' },
        { path: 'src/notes/Hooked.ts', original: './Hooked.js' },
      ],
    },
    'src/notes/schemas.ts': { imports: [{ path: 'node_modules/zod/index.js', original: 'zod' }] },
    'src/notes/sync.ts': { imports: [{ path: 'src/notes/schemas.ts', original: './schemas.js' }] },
    'src/notes/Board.tsx': { imports: [{ path: 'src/notes/schemas.ts', original: './schemas.js' }] },
    'src/notes/Plain.ts': { imports: [] },
    'src/notes/Hooked.ts': {
      imports: [
        { path: '@platform/sdk/hooks', external: true, original: '@platform/sdk/hooks' },
        { path: 'node_modules/zod/index.js', original: 'zod' },
      ],
    },
  },
};

describe('serverSideImports', () => {
  it("names the definition's packages and the modules that reach a package but no browser module", () => {
    expect(serverSideImports(metafile, 'integration.ts')).toEqual(
      new Set(['zod', '@platform/sdk/integration', './schemas.js', './sync.js']),
    );
  });

  it('finds nothing when the metafile has no browser entry for that file', () => {
    expect(serverSideImports(metafile, 'other.ts').size).toBe(0);
  });
});
