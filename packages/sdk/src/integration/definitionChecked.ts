/**
 * The global the host's runner sets to `true` in an isolate it makes for an installed version
 * while the version's bundle's top level runs (it is taken off afterwards). The host checked that
 * definition when it installed the version (reading it in an isolate of its own, where this is not
 * set), so `defineIntegration` does not check it again in every new isolate of the version: the
 * check cost each isolate about half a MiB and 1-2 ms of its cold start. Partner code that sets it
 * itself only skips its own check; the harness and tests never set it.
 */
export const DEFINITION_CHECKED_GLOBAL = '__platformDefinitionChecked';

/** Whether this realm runs a definition its host has already checked (see {@link DEFINITION_CHECKED_GLOBAL}). */
export const definitionChecked = (): boolean =>
  (globalThis as Record<string, unknown>)[DEFINITION_CHECKED_GLOBAL] === true;
