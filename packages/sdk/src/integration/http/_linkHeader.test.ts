import { describe, expect, it } from 'vitest';
import { nextLink, parseLinkHeader } from './_linkHeader.js';

describe('parseLinkHeader', () => {
  it('reads every link with its rels, in order', () => {
    expect(
      parseLinkHeader(
        '<https://api.github.com/repositories/1/issues?page=2>; rel="next", <https://api.github.com/repositories/1/issues?page=5>; rel="last"',
      ),
    ).toEqual([
      { url: 'https://api.github.com/repositories/1/issues?page=2', rels: ['next'] },
      { url: 'https://api.github.com/repositories/1/issues?page=5', rels: ['last'] },
    ]);
  });

  it('reads several rels in one link, unquoted rels, other parameters and commas inside quotes', () => {
    expect(
      parseLinkHeader(
        '</a?x=1,2>; title="one, two; three"; rel="prev first", </b>;rel=next;type="application/json",<c>',
      ),
    ).toEqual([
      { url: '/a?x=1,2', rels: ['prev', 'first'] },
      { url: '/b', rels: ['next'] },
      { url: 'c', rels: [] },
    ]);
  });

  it('is empty for an empty or malformed header', () => {
    expect(parseLinkHeader('')).toEqual([]);
    expect(parseLinkHeader('rel="next"')).toEqual([]);
    expect(parseLinkHeader('<unclosed; rel="next"')).toEqual([]);
  });
});

describe('nextLink', () => {
  it('resolves rel="next" against the URL that answered, whatever its case and position', () => {
    expect(
      nextLink('</items?page=1>; rel="prev", </items?page=3>; REL="Next"', 'https://a.test/v1/items?page=2'),
    ).toBe('https://a.test/items?page=3');
  });

  it('is undefined without a header or a next link', () => {
    expect(nextLink(null, 'https://a.test/')).toBeUndefined();
    expect(nextLink('<https://a.test/?page=1>; rel="prev"', 'https://a.test/')).toBeUndefined();
  });
});
