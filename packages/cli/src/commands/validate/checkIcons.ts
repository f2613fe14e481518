import { closestName } from '../../icons/closestName.js';
import { freeIconNames } from '../../icons/freeIconNames.js';
import { widgetsOf } from './declarations.js';
import { type Finding, finding } from './finding.js';
import type { LoadedIntegration } from './loadDefinitions.js';

/** `icons/pro-only`: every widget `icon` is in the free icon set; the hint names the closest free one. */
export async function checkIcons(integrations: readonly LoadedIntegration[]): Promise<Finding[]> {
  const used = integrations.flatMap((integration) =>
    widgetsOf(integration.definition).flatMap((widget) =>
      widget.icon === undefined ? [] : [{ integration, widget, icon: widget.icon }],
    ),
  );
  if (used.length === 0) return [];
  const free = await freeIconNames();
  return used
    .filter(({ icon }) => !free.has(icon))
    .map(({ integration, widget, icon }) => {
      const suggestion = freeEquivalent(icon, free);
      return finding('icons/pro-only', {
        message: `${integration.slug}: widget "${widget.id}" uses icon "${icon}", which is not in the free icon set (Font Awesome Free)`,
        path: `components.widgets.${widget.index}.icon`,
        hint:
          suggestion === undefined
            ? 'Pick an icon from the free set (Font Awesome Free: solid, regular or brands) and use its kebab-case name.'
            : `Use the free icon "${suggestion}" instead, or pick another from the free set.`,
      });
    });
}

/**
 * The free icon to suggest for `icon`: the longest free name it extends by whole segments
 * (`house-chimney-heart` -> `house-chimney`), else the free name nearest by edit distance.
 */
export function freeEquivalent(icon: string, free: ReadonlySet<string>): string | undefined {
  const segments = icon.split('-');
  for (let length = segments.length - 1; length > 0; length--) {
    const shorter = segments.slice(0, length).join('-');
    if (free.has(shorter)) return shorter;
  }
  return closestName(icon, free);
}
