import { randomUUID } from 'node:crypto';
import { toolArgumentsJson } from '@platform/sdk/runtime';

/** How long a person has to answer, as on the host. */
const CONFIRMATION_TTL_MS = 5 * 60_000;
const PENDING_MAX = 1000;

/**
 * The harness's confirmations in flight (`requestState` of a 2026-07-28 `input_required`): an
 * opaque id bound to the tool and the arguments, single use, expiring after 5 minutes, as the
 * host's sealed ones are. Kept in memory: the harness is one process.
 */
export class PendingConfirmations {
  private readonly pending = new Map<string, { tool: string; args: string; expiresAt: number }>();

  constructor(private readonly now: () => Date) {}

  open(tool: string, args: unknown): string {
    if (this.pending.size >= PENDING_MAX) {
      const oldest = this.pending.keys().next().value;
      if (oldest !== undefined) this.pending.delete(oldest);
    }
    const state = randomUUID();
    this.pending.set(state, {
      tool,
      args: toolArgumentsJson(args),
      expiresAt: this.now().getTime() + CONFIRMATION_TTL_MS,
    });
    return state;
  }

  /** Uses the state up; why it does not confirm this call, or undefined when it does. */
  use(state: string, tool: string, args: unknown): string | undefined {
    const claim = this.pending.get(state);
    this.pending.delete(state);
    if (claim === undefined) return 'this confirmation is unknown or was already used';
    if (claim.expiresAt <= this.now().getTime()) return 'the confirmation expired';
    if (claim.tool !== tool) return 'the confirmation was given for another call';
    if (claim.args !== toolArgumentsJson(args)) return 'the arguments changed after the confirmation';
    return undefined;
  }
}
