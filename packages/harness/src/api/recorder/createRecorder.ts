import { join } from 'node:path';
import { type CapabilityFetchRequest, type CapabilityFetchResponse, redactUrl } from '@platform/sdk/runtime';
import { jsonFile, writeFileAtomic } from '../_jsonFile.js';
import { ignoreInGit, LIVE_DIR } from '../liveStore.js';
import { mergeRecording, renderRecordedModule, toFixtures } from './renderRecordedFixtures.js';
import { type Recording, toRecording } from './toRecording.js';

/** Where recorded fixtures are written, relative to the project directory (meant to be committed). */
export const RECORDED_FIXTURES_DIR = 'harness-fixtures';

/**
 * The module a slug's recordings are written to.
 * @example recordedFixturesPath('acme-notes') // 'harness-fixtures/acme-notes.recorded.ts'
 */
export function recordedFixturesPath(slug: string): string {
  return `${RECORDED_FIXTURES_DIR}/${slug}.recorded.ts`;
}

/** Writes each answered live `ctx.fetch` hop into the slug's recorded fixtures. */
export interface Recorder {
  /** Never throws: a recording that fails is logged and the call goes on. */
  record(
    slug: string,
    request: CapabilityFetchRequest,
    response: CapabilityFetchResponse,
    knownSecrets: readonly string[],
  ): Promise<void>;
}

/**
 * A recorder for a project directory. The recordings themselves (with every query param that is
 * not secret-like, so the fixtures can be worked out again) live in `.platform/live/recordings/`;
 * the module under `harness-fixtures/` is rendered from them, atomically, after each one.
 * @example await createRecorder(projectDir, log).record('acme-notes', request, response, secrets);
 */
export function createRecorder(projectDir: string, log: (line: string) => void): Recorder {
  return {
    async record(slug, request, response, knownSecrets) {
      const shown = `${request.method.toUpperCase()} ${redactUrl(request.url)}`;
      const recording = toRecording(request, response, knownSecrets);
      if ('skipped' in recording) {
        log(`[harness] not recorded: ${shown}: ${recording.skipped}`);
        return;
      }
      const file = jsonFile<Recording[]>(join(projectDir, LIVE_DIR, 'recordings', `${slug}.json`), {
        empty: () => [],
        parse: (value) => {
          if (!Array.isArray(value)) throw new Error('expected an array of recordings');
          return value as Recording[];
        },
      });
      const target = join(projectDir, recordedFixturesPath(slug));
      try {
        // The raw recordings live under .platform/live/ too: never committed, whoever writes first.
        await ignoreInGit(projectDir);
        await file.update(async (recordings) => {
          const merged = mergeRecording(recordings, recording);
          recordings.splice(0, recordings.length, ...merged);
          await writeFileAtomic(target, renderRecordedModule(slug, toFixtures(merged)), 0o644);
        });
        log(`[harness] recorded ${shown} -> ${response.status} into ${recordedFixturesPath(slug)}`);
      } catch (error) {
        log(`[harness] recording ${shown} failed: ${(error as Error).message}`);
      }
    },
  };
}
