// A small EventTarget, Event and AbortController/AbortSignal: what ctx.fetch and partner code use.
// DOMException comes from core-js-pure (the same one the prelude exposes as a global).
import { DOMException } from './coreJs.js';

type Listener = ((event: Event) => void) | { handleEvent(event: Event): void };
interface ListenerEntry {
  readonly listener: Listener;
  readonly once: boolean;
}

export class EventTarget {
  #listeners = new Map<string, ListenerEntry[]>();
  addEventListener(type: string, listener: Listener | null | undefined, options?: { once?: boolean }): void {
    if (typeof listener !== 'function' && typeof listener?.handleEvent !== 'function') return;
    const list = this.#listeners.get(type) ?? [];
    if (!list.some((entry) => entry.listener === listener)) {
      list.push({ listener, once: Boolean(options?.once) });
    }
    this.#listeners.set(type, list);
  }
  removeEventListener(type: string, listener: Listener): void {
    const list = this.#listeners.get(type);
    if (list)
      this.#listeners.set(
        type,
        list.filter((entry) => entry.listener !== listener),
      );
  }
  dispatchEvent(event: Event): boolean {
    // An `on<type>` handler partner code may have set on the target.
    const handler: unknown = (this as unknown as Record<string, unknown>)[`on${event.type}`];
    if (typeof handler === 'function') handler.call(this, event);
    for (const entry of [...(this.#listeners.get(event.type) ?? [])]) {
      if (entry.once) this.removeEventListener(event.type, entry.listener);
      if (typeof entry.listener === 'function') entry.listener.call(this, event);
      else entry.listener.handleEvent(event);
    }
    return true;
  }
}

export class Event {
  type: string;
  constructor(type: unknown) {
    this.type = String(type);
  }
}

export class AbortSignal extends EventTarget {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((event: Event) => void) | null = null;
  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }
  static abort(reason?: unknown): AbortSignal {
    const controller = new AbortController();
    controller.abort(reason);
    return controller.signal;
  }
  static timeout(ms: number): AbortSignal {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms);
    return controller.signal;
  }
}

export class AbortController {
  signal = new AbortSignal();
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.signal.aborted) return;
    this.signal.aborted = true;
    this.signal.reason = reason;
    this.signal.dispatchEvent(new Event('abort'));
  }
}
