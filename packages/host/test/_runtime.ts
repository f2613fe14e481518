import type { Runtime } from '@platform/host';
import { type ActionEnvelope, createMemoryCapabilities, type LogEntry } from '@platform/sdk/runtime';

/**
 * One action of a bundle straight through a runtime (no host, no database): memory capabilities,
 * a user actor, and the call's log lines pushed to `logs` when given.
 * @example const envelope = await invokeBundle(runtime, { bundle, versionId: 'v1', actionName: 'ok' });
 */
export function invokeBundle(
  runtime: Runtime,
  call: {
    readonly bundle: string;
    readonly versionId: string;
    readonly actionName: string;
    readonly input?: unknown;
    readonly logs?: LogEntry[];
    readonly timeoutMs?: number;
  },
): Promise<ActionEnvelope> {
  const capabilities = createMemoryCapabilities();
  return runtime.invokeAction({
    version: { id: call.versionId, loadBundle: async () => call.bundle },
    capabilities:
      call.logs === undefined ? capabilities : { ...capabilities, log: (entry) => call.logs!.push(entry) },
    actor: { kind: 'user', userId: 'u1', accountId: 'a1' },
    timeoutMs: call.timeoutMs ?? 5000,
    actionName: call.actionName,
    rawBody: JSON.stringify(call.input ?? {}),
  });
}
