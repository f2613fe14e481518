import { FREE_ICON_NAMES_SOURCE } from './freeIconNames.js';

/**
 * Every icon name of the free icon set (Font Awesome Free: solid, regular and brands, aliases
 * included), sorted. The CLI's `icons/pro-only` finding flags a name outside it.
 * @example FREE_ICON_NAMES.includes('calendar') // true
 */
export const FREE_ICON_NAMES: readonly string[] = Object.freeze(FREE_ICON_NAMES_SOURCE.trim().split(' '));

const FREE = new Set(FREE_ICON_NAMES);

// Style words that may precede a name in class-list form ("fa-solid fa-house", "fas fa-house").
const STYLE_WORDS = new Set([
  'fa',
  'fas',
  'far',
  'fab',
  'fal',
  'fat',
  'fad',
  'fass',
  'fasr',
  'fasl',
  'fast',
  'fa-solid',
  'fa-regular',
  'fa-brands',
  'fa-light',
  'fa-thin',
  'fa-duotone',
  'fa-sharp',
  'fa-sharp-duotone',
]);

/**
 * An icon name as written in a definition or class list, reduced to the bare name:
 * `"fa-solid fa-House"` → `"house"`.
 * @example normalizeIconName('fas fa-calendar-days') // 'calendar-days'
 */
export function normalizeIconName(name: string): string {
  const words = name.trim().toLowerCase().split(/\s+/);
  const last = words.filter((word) => !STYLE_WORDS.has(word)).at(-1) ?? '';
  return last.startsWith('fa-') ? last.slice(3) : last;
}

/**
 * True when the name (bare or in class-list form) is in the free icon set.
 * @example isFreeIconName('fa-solid fa-house') // true
 */
export function isFreeIconName(name: string): boolean {
  return FREE.has(normalizeIconName(name));
}

/**
 * The closest free icon name, for the hint of the CLI's `icons/pro-only` finding: the name itself
 * when free; else the free name made of the most of its words (`house-chimney-heart` →
 * `house-chimney`); else the nearest by edit distance when it is close; else `undefined`.
 * @example suggestFreeIconName('calendar-heart') // 'calendar'
 */
export function suggestFreeIconName(name: string): string | undefined {
  const wanted = normalizeIconName(name);
  if (wanted === '') return undefined;
  if (FREE.has(wanted)) return wanted;

  const words = new Set(wanted.split('-').filter((word) => word.length > 1));
  let best: { name: string; words: number; distance: number } | undefined;
  for (const candidate of FREE_ICON_NAMES) {
    const parts = candidate.split('-');
    if (!parts.every((part) => words.has(part))) continue;
    const distance = editDistance(wanted, candidate);
    if (
      best === undefined ||
      parts.length > best.words ||
      (parts.length === best.words && distance < best.distance)
    ) {
      best = { name: candidate, words: parts.length, distance };
    }
  }
  if (best !== undefined) return best.name;

  const limit = Math.max(2, Math.floor(wanted.length / 3));
  let nearest: { name: string; distance: number } | undefined;
  for (const candidate of FREE_ICON_NAMES) {
    if (Math.abs(candidate.length - wanted.length) > limit) continue;
    const distance = editDistance(wanted, candidate);
    if (distance <= limit && (nearest === undefined || distance < nearest.distance)) {
      nearest = { name: candidate, distance };
    }
  }
  return nearest?.name;
}

// Levenshtein distance over two rows.
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
