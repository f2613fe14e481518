import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createJsonVersions, type JsonVersions } from '@platform/sdk/runtime';
import { type JsonFile, jsonFile } from './_jsonFile.js';

/** Live mode's state, relative to the project directory; the folder ignores itself in git. */
export const LIVE_DIR = '.platform/live';

/** One integration's live state: what `ctx.storage`, `ctx.secrets.set` (account tier) and the OAuth loop stored. */
export interface LiveIntegrationState {
  storage: { account: Record<string, unknown>; user: Record<string, unknown> };
  secrets: { account: Record<string, string> };
  /** The OAuth loop's connection (`oauth/status` in live mode), written with `onTokens`' writes. */
  oauth?: { connectedAt: string; scope?: string };
}

export interface LiveStoreData {
  version: 1;
  integrations: Record<string, LiveIntegrationState>;
}

/**
 * `.platform/live/store.json`: survives restarts, rewritten atomically, one update at a time for
 * the whole process (see `_jsonFile.ts`), mode 0600 (it holds the tokens `onTokens` stored).
 */
export interface LiveStore {
  readonly path: string;
  /** A copy of one integration's state (empty when nothing is stored). */
  read(slug: string): Promise<LiveIntegrationState>;
  /** Edits one integration's state in place under the store's write queue. */
  update<R>(slug: string, change: (state: LiveIntegrationState) => R | Promise<R>): Promise<R>;
  /**
   * The versions of one integration's stored keys for the conflict rule, kept in this process
   * (the store's one writer); an edit of the file by hand counts as a change too.
   */
  versions(slug: string): JsonVersions;
}

const stores = new Map<string, LiveStore>();

/**
 * The live store of a project directory: one per directory for the whole process.
 * @example await liveStoreFor(projectDir).update('acme-notes', (state) => { state.storage.account.settings = {}; });
 */
export function liveStoreFor(projectDir: string): LiveStore {
  const path = join(projectDir, LIVE_DIR, 'store.json');
  const existing = stores.get(path);
  if (existing !== undefined) return existing;
  const file: JsonFile<LiveStoreData> = jsonFile(path, { empty: emptyStore, parse: parseStore });
  let ignored = false;
  const versions = new Map<string, JsonVersions>();
  const store: LiveStore = {
    path,
    async read(slug) {
      return stateOf(await file.read(), slug);
    },
    async update(slug, change) {
      if (!ignored) {
        await ignoreInGit(projectDir);
        ignored = true;
      }
      return file.update(async (data) => {
        const state = stateOf(data, slug);
        const result = await change(state);
        data.integrations[slug] = state;
        return result;
      });
    },
    versions(slug) {
      let found = versions.get(slug);
      if (found === undefined) {
        found = createJsonVersions();
        versions.set(slug, found);
      }
      return found;
    },
  };
  stores.set(path, store);
  return store;
}

/**
 * Drops a `.gitignore` of `*` into `.platform/live/` so tokens and recordings' raw state are never
 * committed, whatever the project's own `.gitignore` says.
 */
export async function ignoreInGit(projectDir: string): Promise<void> {
  const dir = join(projectDir, LIVE_DIR);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, '.gitignore'),
    '# Written by the Platform harness: live state, never committed.\n*\n',
  );
}

function emptyStore(): LiveStoreData {
  return { version: 1, integrations: {} };
}

function parseStore(value: unknown): LiveStoreData {
  const data = value as Partial<LiveStoreData> | null;
  if (
    typeof data !== 'object' ||
    data === null ||
    data.version !== 1 ||
    typeof data.integrations !== 'object'
  )
    throw new Error('expected { "version": 1, "integrations": { ... } }');
  return data as LiveStoreData;
}

// Missing parts are filled in, so an older or hand-edited file still reads.
function stateOf(data: LiveStoreData, slug: string): LiveIntegrationState {
  const found: Partial<LiveIntegrationState> = Object.hasOwn(data.integrations, slug)
    ? (data.integrations[slug] ?? {})
    : {};
  return {
    ...found,
    storage: { account: { ...found.storage?.account }, user: { ...found.storage?.user } },
    secrets: { account: { ...found.secrets?.account } },
  };
}
