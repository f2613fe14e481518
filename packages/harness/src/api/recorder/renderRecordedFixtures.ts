import type { HttpFixture } from '../../types.js';
import type { Recording } from './toRecording.js';

/**
 * Adds a recording to the list, replacing an earlier one of the same request (method, target and
 * kept query), which keeps its place: a re-recorded answer updates the fixture, never doubles it.
 * @example recordings = mergeRecording(recordings, recording);
 */
export function mergeRecording(recordings: readonly Recording[], recording: Recording): Recording[] {
  const key = recordingKey(recording);
  const index = recordings.findIndex((candidate) => recordingKey(candidate) === key);
  if (index === -1) return [...recordings, recording];
  return recordings.map((candidate, at) => (at === index ? recording : candidate));
}

/**
 * The fixtures a list of recordings stands for. The query is kept only where a fixture needs it:
 * a param appears in a fixture when its value tells two recordings of the same method and path
 * apart; then the more specific fixture comes first (first match wins, and a fixture without `?`
 * matches any query). Recordings that end up with the same request keep the latest answer.
 * @example toFixtures(recordings) // [{ request: 'GET https://api.acme.com/v1/notes?page=2', response: [...] }, ...]
 */
export function toFixtures(recordings: readonly Recording[]): HttpFixture[] {
  const groups = new Map<string, Recording[]>();
  for (const recording of recordings) {
    const group = `${recording.method} ${recording.target}`;
    groups.set(group, [...(groups.get(group) ?? []), recording]);
  }
  const fixtures: HttpFixture[] = [];
  for (const [group, members] of groups) {
    const distinguishing = distinguishingParams(members);
    const byRequest = new Map<string, { fixture: HttpFixture; specificity: number }>();
    for (const member of members) {
      const kept = new URLSearchParams();
      for (const [name, value] of member.query) {
        if (distinguishing.has(name) && !kept.has(name)) kept.append(name, value);
      }
      const query = kept.toString();
      const request = query === '' ? group : `${group}?${query}`;
      byRequest.delete(request);
      byRequest.set(request, { fixture: { request, ...member.response }, specificity: kept.size });
    }
    // Array#sort is stable: equally specific fixtures keep their recording order.
    const ordered = [...byRequest.values()].sort((a, b) => b.specificity - a.specificity);
    fixtures.push(...ordered.map(({ fixture }) => fixture));
  }
  return fixtures;
}

/**
 * The TypeScript module a partner imports into `harness.config.ts`.
 * @example await writeFile(path, renderRecordedModule('acme-notes', fixtures));
 */
export function renderRecordedModule(slug: string, fixtures: readonly HttpFixture[]): string {
  return `// Recorded by the Platform harness from live "${slug}" traffic (live mode with x-harness-record: 1).
// Redacted: credential and token-like headers dropped, known secret values and token-like JSON
// fields replaced with "[redacted]", secret-like query params left out. Rewritten on every recording
// (edit a copy, not this file). Use it under a variant in harness.config.ts:
//   import { recordedFixtures } from './harness-fixtures/${slug}.recorded.js';
//   fixtures: { default: recordedFixtures }
import type { HttpFixture } from '@platform/harness';

export const recordedFixtures: readonly HttpFixture[] = ${JSON.stringify(fixtures, null, 2)};
`;
}

function recordingKey(recording: Recording): string {
  const query = [...recording.query].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([recording.method, recording.target, query]);
}

// A param distinguishes when the group's recordings do not all carry the same value for it.
function distinguishingParams(members: readonly Recording[]): Set<string> {
  const names = new Set(members.flatMap((member) => member.query.map(([name]) => name)));
  const distinguishing = new Set<string>();
  for (const name of names) {
    const values = new Set(members.map((member) => member.query.find(([key]) => key === name)?.[1]));
    if (values.size > 1) distinguishing.add(name);
  }
  return distinguishing;
}
