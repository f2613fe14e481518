import { SCHEMA_VERSION } from '@platform/integration-schema';
import { CLI_VERSION } from '../version.js';

/** The packages released in lockstep with the schema (spec, Versioning 1). */
export const LOCKSTEP_PACKAGES = ['@platform/sdk', '@platform/ui', '@platform/integration-schema'] as const;

/**
 * next-intl, required since the 0.4 train. Exact, and with `use-intl` held at the same version: next-intl
 * 4.14.8 asks for `use-intl@^4.14.8`, which resolves to 4.15.0, whose `icu-minify@^4.15.0` the
 * registry does not serve, so an unpinned install fails.
 */
export const NEXT_INTL_VERSION = '4.14.8';

/** Package-manager overrides that keep next-intl's own parts on {@link NEXT_INTL_VERSION}. */
export const NEXT_INTL_OVERRIDES: Readonly<Record<string, string>> = { 'use-intl': NEXT_INTL_VERSION };

const [major, minor] = SCHEMA_VERSION.split('.');

/** The release train of this CLI: the bundled schema's `major.minor` (`0.5`). */
export const CLI_TRAIN = `${major}.${minor}`;

/**
 * The `@platform/*` ranges this CLI scaffolds and upgrades to: sdk, ui and integration-schema at
 * the bundled schema's version, harness at the train's first release, the CLI at its own version
 * (CLI 0.4.0 bundling schema 0.5.0: `^0.5.0` and `^0.4.0`).
 */
export const PLATFORM_PINS: Readonly<Record<string, string>> = {
  '@platform/sdk': `^${SCHEMA_VERSION}`,
  '@platform/ui': `^${SCHEMA_VERSION}`,
  '@platform/integration-schema': `^${SCHEMA_VERSION}`,
  '@platform/harness': `^${CLI_TRAIN}.0`,
  '@platform/cli': `^${CLI_VERSION}`,
};
