import {
  checkListingFields,
  LISTING_LIMITS,
  listingDocsPath,
  listingDocsSizeProblem,
} from '@platform/integration-schema';
import { describe, expect, it } from 'vitest';

const icons = {
  has: (name: string) => ['note-sticky', 'house'].includes(name),
  suggest: (name: string) => (name.startsWith('house') ? 'house' : undefined),
};

describe('checkListingFields', () => {
  it('keeps good fields, trims text and normalises the docs path', () => {
    expect(
      checkListingFields(
        {
          slug: 'acme-notes',
          name: ' Acme Notes ',
          description: 'Notes.',
          icon: 'house',
          docs: './docs/a.md',
        },
        icons,
      ),
    ).toEqual({
      listing: { name: 'Acme Notes', description: 'Notes.', icon: 'house', docs: 'docs/a.md' },
      problems: [],
    });
    expect(checkListingFields({ slug: 'x' }, icons)).toEqual({ listing: {}, problems: [] });
  });

  it('reports each bad field with a message and a hint, and keeps the good ones', () => {
    const { listing, problems } = checkListingFields(
      {
        name: '',
        description: 'd'.repeat(LISTING_LIMITS.descriptionChars + 1),
        icon: 'house-chimney-heart',
        docs: '../outside.md',
      },
      icons,
    );
    expect(listing).toEqual({});
    expect(problems.map((problem) => problem.field)).toEqual(['name', 'description', 'icon', 'docs']);
    expect(problems[0]!.message).toContain('1 to 80 characters (got 0 characters)');
    expect(problems[1]!.message).toContain('got 301 characters');
    expect(problems[2]!.hint).toContain('"house"');
    expect(problems[3]!.message).toContain('inside the project');
    expect(checkListingFields({ name: 3, icon: 7 }, icons).problems.map((p) => p.message)).toEqual([
      '"name" must be a string of 1 to 80 characters (got number)',
      '"icon" must be an icon name (got number)',
    ]);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkListingFields({ name: '📝'.repeat(80) }, icons).problems).toEqual([]);
    expect(checkListingFields({ name: '📝'.repeat(81) }, icons).problems).toHaveLength(1);
  });
});

describe('listingDocsPath', () => {
  it.each([
    ['docs/a.md', 'docs/a.md'],
    ['./docs//a.MD', 'docs/a.MD'],
    ['README.md', 'README.md'],
    ['/etc/a.md', undefined],
    ['https://example.com/a.md', undefined],
    ['docs/../../a.md', undefined],
    ['docs\\a.md', undefined],
    ['docs/a.txt', undefined],
    ['', undefined],
  ])('%j -> %j', (path, expected) => {
    expect(listingDocsPath(path)).toBe(expected);
  });
});

describe('listingDocsSizeProblem', () => {
  it('refuses a missing file and one over 64 KiB', () => {
    expect(listingDocsSizeProblem('docs/a.md', LISTING_LIMITS.docsBytes)).toBeUndefined();
    expect(listingDocsSizeProblem('docs/a.md', LISTING_LIMITS.docsBytes + 1)?.message).toContain('65 KiB');
    expect(listingDocsSizeProblem('docs/a.md', undefined)?.message).toContain('no such file');
  });
});
