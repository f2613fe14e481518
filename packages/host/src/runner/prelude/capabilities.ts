// Capabilities over the bridge: each call sends JSON text and gets JSON text back. `preload`: the
// storage values the host read ahead for this call (the keys its handler read last time); a get of
// one of them answers here, and the key travels as used with the call's next request or its result,
// so the host counts the read (what a commit checks). A write of the key makes the host's view the
// one to read from.
import type { LogEntry } from './logLine.js';

// Taken when the prelude runs, before partner code can replace them.
const jsonParse: (text: string) => unknown = JSON.parse;
const jsonStringify: (value: unknown) => string = JSON.stringify;

/** A storage value the host read ahead (`used` once the handler read it here). */
interface Preloaded {
  readonly scope: string;
  readonly key: string;
  readonly value?: unknown;
  used?: boolean;
}

/** The host's answer to a capability request (createIsolatedRuntime's, through the runner). */
type CapabilityReply =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: { readonly message: string; readonly [key: string]: unknown } };

/** A capability request: the call's id, the method, its arguments and the used keys as JSON text. */
export type HostCall = (
  callId: string,
  method: string,
  args: string,
  used: string | undefined,
) => Promise<unknown>;

const aheadId = (scope: unknown, key: unknown): string => `${scope}\n${key}`;

/** The capabilities the guest engine gets for one call, and the used keys not yet sent. */
export function capabilitiesFor(
  callId: string,
  preload: unknown,
  hostCall: HostCall,
  log: (callId: string, entry: LogEntry) => void,
) {
  const ahead = new Map<string, Preloaded>();
  if (Array.isArray(preload))
    for (const entry of preload as Preloaded[]) ahead.set(aheadId(entry.scope, entry.key), entry);
  let used: { scope: unknown; key: unknown }[] = [];
  const takeUsed = (): string | undefined => {
    if (used.length === 0) return undefined;
    const text = jsonStringify(used);
    used = [];
    return text;
  };
  const call = async (method: string, args: unknown[]): Promise<unknown> => {
    const answer = await hostCall(callId, method, jsonStringify(args), takeUsed());
    const reply = jsonParse(answer as string) as CapabilityReply;
    if (reply.ok) return reply.value;
    // Name, message, code and properties; the guest engine rebuilds the sdk's own error class.
    const error = new Error(reply.error.message) as Error & Record<string, unknown>;
    for (const [key, value] of Object.entries(reply.error)) if (key !== 'message') error[key] = value;
    throw error;
  };
  const capabilities = {
    fetch: (request: unknown) => call('fetch', [request]),
    storage: {
      get: (scope: unknown, key: unknown) => {
        const entry = ahead.get(aheadId(scope, key));
        if (entry === undefined) return call('storage.get', [scope, key]);
        if (!entry.used) {
          entry.used = true;
          used.push({ scope, key });
        }
        // A copy per read, as the host's answer would be.
        return Promise.resolve('value' in entry ? jsonParse(jsonStringify(entry.value)) : undefined);
      },
      set: (scope: unknown, key: unknown, value: unknown) => {
        ahead.delete(aheadId(scope, key));
        return call('storage.set', [scope, key, value]);
      },
      delete: (scope: unknown, key: unknown) => {
        ahead.delete(aheadId(scope, key));
        return call('storage.delete', [scope, key]);
      },
    },
    secrets: {
      get: (name: unknown) => call('secrets.get', [name]),
      set: (name: unknown, value: unknown) => call('secrets.set', [name, value]),
    },
    log: (entry: LogEntry) => log(callId, entry),
    checkpoint: () => call('checkpoint', []),
  };
  return { capabilities, takeUsed };
}

/** One call's capabilities, as the guest engine takes them. */
export type GuestCapabilities = ReturnType<typeof capabilitiesFor>['capabilities'];
