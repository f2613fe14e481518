// Owns warming the code caches of the prelude and of each version once a call has run.
import { bundleFilename, PRELUDE_FILENAME, poolWork } from './_isolatePool.js';
import type { Entry } from './_state.js';
import { cpuTimeOf, preludeState, settings, versions } from './_state.js';

// Compiling a version again for its code cache runs in its isolate, outside any call: allowed this
// much CPU on top of the leftover budget, once per version.
const WARM_ALLOWANCE_NS = 250_000_000n;

export const cacheIsCold = (versionId: string): boolean =>
  !preludeState.warm || versions.get(versionId)?.cacheWarm === false;

export async function warmCaches(versionId: string, entry: Entry) {
  const cacheAgain = async (source: string, filename: string) =>
    (await poolWork(entry, entry.isolate.compileScript(source, { filename, produceCachedData: true })))
      .cachedData;
  if (!preludeState.warm) {
    preludeState.warm = true;
    preludeState.cache = (await cacheAgain(settings.preludeText, PRELUDE_FILENAME)) ?? preludeState.cache;
  }
  const version = versions.get(versionId);
  if (version !== undefined && !version.cacheWarm && !entry.disposed) {
    version.cacheWarm = true;
    version.cachedData = (await cacheAgain(version.script, bundleFilename(versionId))) ?? version.cachedData;
  }
}

// Compiling runs in the isolate outside any call: allowed once, then the leftover clock restarts.
export async function warmCachesOnce(versionId: string, entry: Entry) {
  entry.idleAllowanceNs += WARM_ALLOWANCE_NS;
  try {
    await warmCaches(versionId, entry);
  } finally {
    entry.idleAllowanceNs -= WARM_ALLOWANCE_NS;
    if (entry.idleCpuStart !== undefined) entry.idleCpuStart = cpuTimeOf(entry);
  }
}
