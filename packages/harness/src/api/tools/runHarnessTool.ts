import { StorageConflictError } from '@platform/sdk/integration';
import {
  invokeTool,
  type LogEntry,
  STORAGE_CONFLICT_MESSAGE,
  type ToolEnvelope,
} from '@platform/sdk/runtime';
import type { HarnessHop } from '../../hooks/createHarnessFetch.js';
import type { HarnessApi, HarnessCall } from '../_harnessApi.js';
import type { StorageSnapshot } from '../liveCapabilities.js';
import { openCall } from '../openCall.js';
import type { HarnessTool } from './harnessTools.js';

/** One tool call in the harness: what it answered, what it logged, the hops it made and the storage around it. */
export interface HarnessToolRun {
  readonly envelope: ToolEnvelope;
  readonly logs: readonly LogEntry[];
  readonly hops: readonly HarnessHop[];
  readonly storage: { readonly before: StorageSnapshot; readonly after: StorageSnapshot };
}

/**
 * Runs one tool as the host's `tools/call` does once it may run: the sdk's `invokeTool` as the
 * harness user, on the variant's mock state (fixtures) or the live context (live), the writes
 * saved only when it succeeded and no key it read changed meanwhile (else `conflict`).
 * `mode`: `harness` (the Tools surface: `devError` on failures) or `production` (`/mcp`: a
 * `PublicActionError`'s message reaches the model, as on the host).
 */
export async function runHarnessTool(
  api: HarnessApi,
  call: HarnessCall,
  tool: HarnessTool,
  args: unknown,
  mode: 'harness' | 'production',
): Promise<HarnessToolRun> {
  const definition = call.entry.definition;
  if (definition === undefined) throw new Error(`"${call.entry.slug}" has no definition`);
  const opened = openCall(api, call, 'user');
  const before = await opened.snapshot();
  let envelope = await invokeTool(definition, tool.toolName, args, opened.ctx, { mode });
  const conflict: ToolEnvelope = {
    ok: false,
    error: { code: 'conflict', message: STORAGE_CONFLICT_MESSAGE },
  };
  if (!envelope.ok && opened.conflict() !== undefined) envelope = conflict;
  if (envelope.ok) {
    try {
      await opened.commit();
    } catch (error) {
      if (!(error instanceof StorageConflictError)) throw error;
      envelope = conflict;
    }
  }
  const after = await opened.snapshot();
  const outcome = envelope.ok ? 'ok' : envelope.error.code;
  api.log(`[harness] tool ${tool.name} (${call.mode}, ${call.variant}) -> ${outcome}`);
  return { envelope, logs: opened.logs, hops: opened.hops, storage: { before, after } };
}
