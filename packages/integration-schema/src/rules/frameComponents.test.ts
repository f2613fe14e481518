import { describe, expect, it } from 'vitest';
import { checkFrameComponentFields, frameComponentPath } from './frameComponents.js';

const files = new Set(['src/Tile.tsx', 'src/Form.js']);
const exists = (path: string) => files.has(path);

describe('checkFrameComponentFields', () => {
  it('keeps good paths, normalised, and ignores other keys', () => {
    expect(
      checkFrameComponentFields(
        { slug: 'x', tile: './src/Tile.tsx', activationForm: 'src//Form.js' },
        exists,
      ),
    ).toEqual({ components: { tile: 'src/Tile.tsx', activationForm: 'src/Form.js' }, problems: [] });
    expect(checkFrameComponentFields({ slug: 'x' }, exists)).toEqual({ components: {}, problems: [] });
  });

  it('refuses paths outside the project, URLs, other extensions and non-strings', () => {
    const { components, problems } = checkFrameComponentFields(
      { tile: '../outside/Tile.tsx', activationForm: 7 },
      exists,
    );
    expect(components).toEqual({});
    expect(problems.map((p) => [p.field, p.message])).toEqual([
      [
        'tile',
        '"tile" is "../outside/Tile.tsx"; it must be a relative path inside the project to a module (.tsx, .ts, .jsx, .js)',
      ],
      ['activationForm', '"activationForm" must be a string (got number)'],
    ]);
    for (const problem of problems) expect(problem.hint).toMatch(/^Set "(tile|activationForm)" to /);
  });

  it('refuses a file the project does not have', () => {
    expect(checkFrameComponentFields({ tile: 'src/Missing.tsx' }, exists).problems).toEqual([
      {
        field: 'tile',
        message: '"tile" names src/Missing.tsx, but the project has no such file',
        hint: 'Create src/Missing.tsx with the component as its default export, or fix "tile".',
      },
    ]);
  });
});

describe('frameComponentPath', () => {
  it.each([
    ['src/Tile.tsx', 'src/Tile.tsx'],
    ['./a/./b.ts', 'a/b.ts'],
    ['c.jsx', 'c.jsx'],
    ['/abs/Tile.tsx', undefined],
    ['https://x.test/Tile.js', undefined],
    ['a/../../Tile.tsx', undefined],
    ['a\\Tile.tsx', undefined],
    ['Tile.css', undefined],
    ['types.d.ts', undefined],
    ['', undefined],
  ])('%s -> %s', (input, expected) => {
    expect(frameComponentPath(input)).toBe(expected);
  });
});
