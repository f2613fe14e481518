import type { FetchFunction } from '@platform/sdk/hooks';
import { createContext, useContext } from 'react';
import type { HarnessToolbarState } from '../hooks/index.js';
import type { HarnessRegistryEntry } from '../types.js';

/** What `HarnessShell` was given for reaching the harness server. */
export interface ShellOptions {
  /** Pass-through requests (harness server, live vendors); default `globalThis.fetch`. */
  readonly fetch?: FetchFunction;
  /** The page's origin; default `location.origin`. */
  readonly pageOrigin?: string;
}

/** A JSON answer of the harness server. */
export interface ServerAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** An entry page's shared state, for its surfaces. */
export interface EntryPageContextValue {
  readonly entry: HarnessRegistryEntry;
  readonly toolbar: HarnessToolbarState;
  /** The page's harness fetch (what widgets and forms get). */
  readonly fetch: FetchFunction;
  /** The shell's own calls to the harness server (Triggers), with the toolbar headers, logged. */
  readonly callServer: (rest: string, init?: RequestInit) => Promise<ServerAnswer>;
  readonly activation: ActivationState;
}

/** The harness's in-memory activation of one entry: the tile and the providers read it. */
export interface ActivationState {
  readonly activated: boolean;
  readonly data: unknown;
  readonly activate: (data?: unknown) => Promise<void>;
  readonly deactivate: () => Promise<void>;
}

export const EntryPageContext = createContext<EntryPageContextValue | null>(null);

export function useEntryPage(): EntryPageContextValue {
  const value = useContext(EntryPageContext);
  if (value === null) throw new Error('A harness surface rendered outside its entry page.');
  return value;
}

/** The path of one of an entry's harness API routes. */
export function apiPath(slug: string, rest: string): string {
  return `/api/integrations/${encodeURIComponent(slug)}/${rest}`;
}

/** Reads a JSON body, or the text when it is not JSON. */
export async function readAnswer(response: Response): Promise<ServerAnswer> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: the text is the answer.
  }
  return { status: response.status, body };
}
