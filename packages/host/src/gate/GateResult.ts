import type { StoredListing } from '@platform/integration-schema';
import type { DefinitionManifest } from '@platform/sdk/runtime';
import type { Finding as WireFinding } from '@platform/wire';

/** The gate's checks, in the order they run. */
export const GATE_CHECKS = [
  'archive',
  'install',
  'definition.load',
  'definition.schema',
  'checks/typecheck',
  'checks/typecheck-host-rules',
  'checks/tests',
  'bundle',
] as const;

/** The name of one gate check, such as `install` or `checks/tests`. */
export type CheckName = (typeof GATE_CHECKS)[number];

/** `running` while it runs; `skipped` when a check it needs failed. */
export type CheckStatus = 'running' | 'passed' | 'failed' | 'skipped';

/** One check as it starts, ends or is skipped. `log` is the tail of its output, capped. */
export interface CheckResult {
  readonly name: CheckName;
  readonly status: CheckStatus;
  readonly ms?: number;
  readonly log: string;
}

/**
 * One problem the gate found, where it is and what to do about it: the wire contract's finding
 * (`@platform/wire`), its `check` one of the gate's. Stable codes: `TS2322`, `checks/no-tests`...
 */
export type Finding = Omit<WireFinding, 'check'> & { readonly check: CheckName };

/** An integration that passed `definition.load` and `definition.schema`: what the runtime would run. */
export interface GateIntegration {
  readonly slug: string;
  readonly manifest: DefinitionManifest;
  readonly bundle: string;
  /** Its marketplace listing from `platform.json` (name, description, icon, the docs' Markdown). */
  readonly listing: StoredListing;
  /** Its widgets' browser bundle and gzip size (`bundle/buildBrowserBundle.ts`), when it has widgets. */
  readonly browserBundle?: { readonly code: string; readonly gzipBytes: number };
}

/** What {@link runGate} decides: `rejected` when any check failed (warnings alone do not reject). */
export interface GateResult {
  readonly verdict: 'passed' | 'rejected';
  /** Every check in {@link GATE_CHECKS} order, none left `running`. */
  readonly checks: readonly CheckResult[];
  readonly findings: readonly Finding[];
  readonly integrations: readonly GateIntegration[];
}
