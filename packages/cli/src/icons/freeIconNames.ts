import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

// The free icon set widgets may name: Font Awesome Free (solid, regular, brands), names and
// aliases. When @platform/ui exports its own list of free icon names, read that instead, so that
// the CLI and the widget chrome agree by construction.

/** The Font Awesome Free packages whose icons are free. */
export const FREE_ICON_PACKAGES = [
  '@fortawesome/free-solid-svg-icons',
  '@fortawesome/free-regular-svg-icons',
  '@fortawesome/free-brands-svg-icons',
] as const;

// Each icon in a package's generated index.mjs reads
//   iconName: 'house',
//   icon: [512, 512, [127968, "home", "home-alt"], "f015", "M..."]
// Reading names out of the text is several times faster than evaluating the module (which builds
// every SVG path); a test holds this equal to the names the evaluated modules give.
const ICON = /iconName: '([^']+)',\s*icon: \[\d+, \d+, \[([^\]]*)\]/g;
const ALIAS = /"([^"]+)"/g;

let cached: Promise<ReadonlySet<string>> | undefined;

/** Every free icon name (kebab-case, aliases included). Read once, on first use. */
export function freeIconNames(): Promise<ReadonlySet<string>> {
  cached ??= Promise.all(
    FREE_ICON_PACKAGES.map((name) => readFile(fileURLToPath(import.meta.resolve(name)), 'utf8')),
  ).then((sources) => {
    const names = new Set<string>();
    for (const source of sources) {
      for (const [, name, aliases] of source.matchAll(ICON)) {
        names.add(name!);
        for (const [, alias] of aliases!.matchAll(ALIAS)) names.add(alias!);
      }
    }
    if (names.size === 0) throw new Error(`no icon names found in ${FREE_ICON_PACKAGES.join(', ')}`);
    return names;
  });
  return cached;
}
