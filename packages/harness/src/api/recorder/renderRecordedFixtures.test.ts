import { findFixture, parseFixtureRequest } from '@platform/sdk/testing';
import { describe, expect, it } from 'vitest';
import { mergeRecording, renderRecordedModule, toFixtures } from './renderRecordedFixtures.js';
import type { Recording } from './toRecording.js';

const recording = (
  target: string,
  query: [string, string][],
  response: unknown,
  method = 'GET',
): Recording => ({
  method,
  target,
  query,
  response: { response },
});
const NOTES = 'https://api.acme.test/v1/notes';

describe('recorded fixtures', () => {
  it('replaces a recording of the same request in place instead of adding it', () => {
    let list: Recording[] = [];
    list = mergeRecording(list, recording(NOTES, [['page', '1']], 'one'));
    list = mergeRecording(list, recording(`${NOTES}/n1`, [], 'note'));
    list = mergeRecording(list, recording(NOTES, [['page', '1']], 'one again'));
    expect(list.map((item) => item.response.response)).toEqual(['one again', 'note']);
  });

  it('keeps only the params that tell recordings of one method and path apart, most specific first', () => {
    const list = [
      recording(NOTES, [['limit', '10']], 'no page'),
      recording(
        NOTES,
        [
          ['page', '1'],
          ['limit', '10'],
        ],
        'page 1',
      ),
      recording(
        NOTES,
        [
          ['page', '2'],
          ['limit', '10'],
        ],
        'page 2',
      ),
      recording(`${NOTES}/n1`, [['expand', 'all']], 'one note'),
      recording(NOTES, [['limit', '10']], 'created', 'POST'),
    ];
    const fixtures = toFixtures(list);
    expect(fixtures).toEqual([
      { request: `GET ${NOTES}?page=1`, response: 'page 1' },
      { request: `GET ${NOTES}?page=2`, response: 'page 2' },
      { request: `GET ${NOTES}`, response: 'no page' },
      { request: `GET ${NOTES}/n1`, response: 'one note' },
      { request: `POST ${NOTES}`, response: 'created' },
    ]);
    // First match wins with the sdk's own matcher: each request finds its own answer.
    const parsed = fixtures.map((fixture) => ({
      fixture,
      request: parseFixtureRequest(fixture.request, { egress: [] }),
    }));
    const answer = (method: string, url: string) =>
      findFixture(parsed, (entry) => entry.request, { method, url })?.entry.fixture.response;
    expect(answer('GET', `${NOTES}?page=2&limit=10`)).toBe('page 2');
    expect(answer('GET', `${NOTES}?limit=10`)).toBe('no page');
    expect(answer('GET', `${NOTES}/n1?expand=all`)).toBe('one note');
  });

  it('keeps the latest answer when two recordings end up with the same request', () => {
    // Distinct recordings (a repeated param) whose kept query is the same: one fixture, the latest answer.
    const list = [
      recording(
        NOTES,
        [
          ['a', '1'],
          ['a', '2'],
        ],
        'first',
      ),
      recording(NOTES, [['a', '1']], 'second'),
    ];
    expect(toFixtures(list)).toEqual([{ request: `GET ${NOTES}`, response: 'second' }]);
  });

  it('renders a typed module to import under a variant', () => {
    const text = renderRecordedModule('acme-notes', [{ request: `GET ${NOTES}`, response: [] }]);
    expect(text).toContain("import type { HttpFixture } from '@platform/harness';");
    expect(text).toContain('export const recordedFixtures: readonly HttpFixture[] = [');
    expect(text).toContain("import { recordedFixtures } from './harness-fixtures/acme-notes.recorded.js';");
    expect(text).toContain(`"request": "GET ${NOTES}"`);
  });
});
