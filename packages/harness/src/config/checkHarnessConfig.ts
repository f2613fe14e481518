import { checkEntry } from './_checkEntry.js';
import { describeValue, isRecord } from './_shape.js';
import type { HarnessConfigProblem } from './HarnessConfigError.js';

/**
 * Every problem of a harness configuration, without throwing (an empty list when it is valid): the
 * checks `defineHarnessConfig()` runs, for tools that report rather than fail.
 * @example const problems = checkHarnessConfig(config); if (problems.length > 0) console.log(problems);
 */
export function checkHarnessConfig(entries: unknown): HarnessConfigProblem[] {
  const problems: HarnessConfigProblem[] = [];
  if (!Array.isArray(entries)) {
    problems.push({
      entry: '(config)',
      field: '(root)',
      message: `must be an array of entries, not ${describeValue(entries)}; write defineHarnessConfig([{ slug, name, description, widgets }]).`,
    });
    return problems;
  }
  const slugs = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    const slug =
      isRecord(entry) && typeof entry.slug === 'string' && entry.slug !== '' ? entry.slug : undefined;
    const label = slug ?? `[${index}]`;
    const report = (field: string, message: string) => problems.push({ entry: label, field, message });
    if (!isRecord(entry)) {
      report(
        '(entry)',
        `must be an object { slug, name, description, widgets }, not ${describeValue(entry)}.`,
      );
      continue;
    }
    checkEntry(entry, report);
    if (slug === undefined) continue;
    const first = slugs.get(slug);
    if (first === undefined) {
      slugs.set(slug, index);
    } else {
      report(
        'slug',
        `duplicate slug "${slug}": entries [${first}] and [${index}] both use it; slugs are URLs (/${slug}), so give each entry its own.`,
      );
    }
  }
  return problems;
}
