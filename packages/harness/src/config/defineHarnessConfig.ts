import type { HarnessRegistryEntry } from '../types.js';
import { checkHarnessConfig } from './checkHarnessConfig.js';
import { HarnessConfigError } from './HarnessConfigError.js';

/**
 * Declares the harness's integrations (`harness.config.ts`): checks every entry and throws one
 * `HarnessConfigError` listing every problem, or returns the entries as given, frozen, with their
 * literal types kept.
 * @example
 * export const harnessIntegrations = defineHarnessConfig([
 *   {
 *     slug: 'acme-notes',
 *     name: 'Acme Notes',
 *     description: 'Notes from Acme.',
 *     definition: asHarnessDefinition(acmeNotes),
 *     widgets: harnessWidgetsFromDefinition(acmeNotes, { 'acme-notes-board': { width: 'full' } }),
 *     fixtures: { default: [{ request: 'GET /v1/notes', response: [{ id: 'n1' }] }], empty: [] },
 *   },
 * ]);
 */
export function defineHarnessConfig<const T extends readonly HarnessRegistryEntry[]>(
  entries: T & NoUnknownEntryKeys<T>,
): T {
  const problems = checkHarnessConfig(entries);
  if (problems.length > 0) throw new HarnessConfigError(problems);
  return freezeConfig(entries);
}

// A `const` type parameter skips excess-property checks, so a misspelt optional key (`fixture:`)
// would type-check and be ignored; mapping unknown keys to `never` makes the editor flag it (the
// run-time check reports it too, for JavaScript configs).
type NoUnknownEntryKeys<T extends readonly HarnessRegistryEntry[]> = {
  [K in keyof T]: T[K] & Record<Exclude<keyof T[K], keyof HarnessRegistryEntry>, never>;
};

// The shell and the API handlers read one registry for the life of the process; freezing the
// structure the harness owns (entries, widget lists, fixture lists) makes a stray mutation fail
// loudly instead of leaving two surfaces disagreeing. Components, definitions, seed data and
// trigger mocks are the partner's objects and stay as they are.
function freezeConfig<T extends readonly HarnessRegistryEntry[]>(entries: T): T {
  for (const entry of entries) {
    for (const widget of entry.widgets) Object.freeze(widget);
    Object.freeze(entry.widgets);
    for (const list of Object.values(entry.fixtures ?? {})) {
      for (const fixture of list) Object.freeze(fixture);
      Object.freeze(list);
    }
    if (entry.fixtures !== undefined) Object.freeze(entry.fixtures);
    Object.freeze(entry);
  }
  return Object.freeze(entries);
}
