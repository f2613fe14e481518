import type { PackageJson, PackageManager } from '../../project/packageJson.js';
import {
  CLI_TRAIN,
  LOCKSTEP_PACKAGES,
  NEXT_INTL_OVERRIDES,
  NEXT_INTL_VERSION,
  PLATFORM_PINS,
} from '../../project/pins.js';
import { compareVersions, minimumOfRange, trainOf } from '../../project/semver.js';

/** One edit `upgrade` makes (or, with `--check`, would make) to package.json. */
export interface PackageChange {
  readonly name: string;
  /** `dependencies`, `devDependencies`, `overrides` or `pnpm.overrides`. */
  readonly section: string;
  /** The range before, `null` when the package is added. */
  readonly from: string | null;
  readonly to: string;
}

/** A `@platform/*` package pinned on a newer train than this CLI's: only a newer CLI can upgrade it. */
export interface AheadPackage {
  readonly name: string;
  readonly range: string;
}

/** The edits that move a package.json onto this CLI's train, and what is already past it. */
export interface UpgradePlan {
  readonly changes: readonly PackageChange[];
  readonly ahead: readonly AheadPackage[];
  /** The package.json with the changes made (the input is not modified). */
  readonly upgraded: PackageJson;
}

const SECTIONS = ['dependencies', 'devDependencies'] as const;
const TRAIN_PACKAGES: readonly string[] = [...LOCKSTEP_PACKAGES, '@platform/harness'];

/**
 * Moves every pinned `@platform/*` package below this CLI's train up to it (never down), adds
 * next-intl (with `use-intl` held to the same version) to a project on the 0.4 train or later
 * that uses the sdk or ui without it, and lists packages already past the train. Ranges it cannot
 * read (`workspace:`, `file:`, tags) are left alone.
 */
export function planUpgrade(packageJson: PackageJson, manager: PackageManager): UpgradePlan {
  const changes: PackageChange[] = [];
  const ahead: AheadPackage[] = [];
  const sections: Record<string, Record<string, string>> = {};
  for (const section of SECTIONS) {
    const ranges = { ...(packageJson[section] ?? {}) };
    sections[section] = ranges;
    for (const [name, range] of Object.entries(ranges)) {
      const target = PLATFORM_PINS[name];
      const current = minimumOfRange(range);
      if (target === undefined || current === undefined) continue;
      if (compareVersions(current, minimumOfRange(target)!) < 0) {
        ranges[name] = target;
        changes.push({ name, section, from: range, to: target });
      } else if (
        TRAIN_PACKAGES.includes(name) &&
        compareVersions(`${trainOf(current)}.0`, `${CLI_TRAIN}.0`) > 0
      ) {
        ahead.push({ name, range });
      }
    }
  }

  const upgraded: Record<string, unknown> = { ...packageJson, ...nonEmpty(sections) };
  const usesWidgets = SECTIONS.some((section) =>
    ['@platform/sdk', '@platform/ui'].some((name) => sections[section]?.[name] !== undefined),
  );
  const hasNextIntl = SECTIONS.some((section) => sections[section]?.['next-intl'] !== undefined);
  if (usesWidgets && !hasNextIntl && compareVersions(`${CLI_TRAIN}.0`, '0.4.0') >= 0) {
    const dependencies = { ...(sections.dependencies ?? {}), 'next-intl': NEXT_INTL_VERSION };
    upgraded.dependencies = dependencies;
    changes.push({ name: 'next-intl', section: 'dependencies', from: null, to: NEXT_INTL_VERSION });
    holdNextIntlParts(upgraded, manager, changes);
  }
  return { changes, ahead, upgraded: upgraded as PackageJson };
}

// Adds the next-intl overrides where the package manager reads them from package.json: npm's
// `overrides`, pnpm's `pnpm.overrides`. Existing entries win.
function holdNextIntlParts(
  upgraded: Record<string, unknown>,
  manager: PackageManager,
  changes: PackageChange[],
): void {
  const pnpm = (upgraded.pnpm ?? {}) as { overrides?: Record<string, unknown> };
  const current =
    manager === 'pnpm' ? pnpm.overrides : (upgraded.overrides as Record<string, unknown> | undefined);
  const overrides = { ...(current ?? {}) };
  const section = manager === 'pnpm' ? 'pnpm.overrides' : 'overrides';
  for (const [name, version] of Object.entries(NEXT_INTL_OVERRIDES)) {
    if (overrides[name] !== undefined) continue;
    overrides[name] = version;
    changes.push({ name, section, from: null, to: version });
  }
  if (manager === 'pnpm') upgraded.pnpm = { ...pnpm, overrides };
  else upgraded.overrides = overrides;
}

function nonEmpty(sections: Record<string, Record<string, string>>): Record<string, Record<string, string>> {
  return Object.fromEntries(Object.entries(sections).filter(([, ranges]) => Object.keys(ranges).length > 0));
}
