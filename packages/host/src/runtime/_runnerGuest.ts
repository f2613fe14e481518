// Owns what the host does with a runner's messages for a call: its log lines, the preloaded
// storage values it used, and the answer to each capability request (checked again here).
import { type Capabilities, type LogEntry, type StorageRef, toWireError } from '@platform/sdk/runtime';

/**
 * A call's console lines from its runner, in order: JSON text each (the prelude's), batched with
 * the call's next message. Anything else (not an array, a line that is not a JSON object) is dropped.
 */
export function applyLogs(call: { readonly capabilities: Capabilities } | undefined, entries: unknown): void {
  if (call === undefined || !Array.isArray(entries)) return;
  for (const entry of entries) {
    try {
      const parsed: unknown = JSON.parse(String(entry));
      // The call's logger checks level and message; a line that is no object never reaches it.
      if (typeof parsed === 'object' && parsed !== null) call.capabilities.log(parsed as LogEntry);
    } catch {
      // A log line that is not JSON is dropped; it cannot come from the prelude.
    }
  }
}

/**
 * Preloaded storage values a call's guest says it used (JSON text of `{ scope, key }` objects, with
 * the call's next message): they count as read before that message is handled. Anything else is
 * dropped; the host capabilities only accept keys they preloaded for this call.
 */
export function applyUsed(call: { readonly capabilities: Capabilities } | undefined, used: unknown): void {
  const storage = call?.capabilities.storage;
  if (storage?.preloadUsed === undefined || typeof used !== 'string') return;
  let refs: unknown;
  try {
    refs = JSON.parse(used);
  } catch {
    return;
  }
  if (!Array.isArray(refs)) return;
  storage.preloadUsed(
    refs.filter(
      (ref): ref is StorageRef =>
        typeof ref === 'object' &&
        ref !== null &&
        (ref.scope === 'account' || ref.scope === 'user') &&
        typeof ref.key === 'string',
    ),
  );
}

// Every capability call is checked again here: the method must be known and the arguments JSON.
export async function answerCapability(
  capabilities: Capabilities | undefined,
  method: string,
  argsJson: string,
): Promise<string> {
  try {
    if (capabilities === undefined) throw new Error('refused: no such call is running for this version');
    const args = JSON.parse(argsJson) as unknown[];
    if (!Array.isArray(args)) throw new TypeError('capability arguments must be a JSON array');
    const [a, b, c] = args as [never, never, never];
    let value: unknown;
    switch (method) {
      case 'fetch':
        value = await capabilities.fetch(a);
        break;
      case 'storage.get':
        value = await capabilities.storage.get(a, b);
        break;
      case 'storage.set':
        value = await capabilities.storage.set(a, b, c);
        break;
      case 'storage.delete':
        value = await capabilities.storage.delete(a, b);
        break;
      case 'secrets.get':
        value = await capabilities.secrets.get(a);
        break;
      case 'secrets.set':
        value = await capabilities.secrets.set(a, b);
        break;
      case 'checkpoint':
        // No arguments: whatever the guest sent is ignored; the call's own writes are saved.
        value = await capabilities.checkpoint();
        break;
      default:
        throw new Error(`unknown capability "${method}"`);
    }
    return JSON.stringify({ ok: true, value });
  } catch (error) {
    // Class name, message, code and properties: the guest rebuilds the sdk's own error class.
    return JSON.stringify({ ok: false, error: toWireError(error) });
  }
}
