// Screenshots kept by the run (packages/ui/test-results/screenshots/, git-ignored) and compared
// with the committed baselines (./baselines/) pixel by pixel, with a small tolerance.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

const UI_ROOT = join(import.meta.dirname, '../..');
export const SCREENSHOT_DIR = join(UI_ROOT, 'test-results', 'screenshots');
export const BASELINE_DIR = join(import.meta.dirname, 'baselines');
export const UPDATE_COMMAND =
  'npm run test:ui:update-baselines (UPDATE_BASELINES=1 npx vitest run packages/ui/test/browser)';

/** pixelmatch's perceptual colour threshold (0-1); antialiased pixels are not counted at all. */
const COLOUR_THRESHOLD = 0.1;
/**
 * Changed pixels tolerated before a screenshot counts as moved: a few glyph edges, never a control
 * (a button shifted by 8 px changes over a thousand, even on a full page where that is under 0.1%).
 */
const MAX_CHANGED_PIXELS = 64;

const updating = () => process.env.UPDATE_BASELINES === '1';

/**
 * Keeps `png` as `<name>.png` and compares it with its baseline; returns what is wrong, or
 * undefined. With UPDATE_BASELINES=1 it writes the baseline instead.
 */
export function compareWithBaseline(png: Buffer, name: string): string | undefined {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const actualPath = join(SCREENSHOT_DIR, `${name}.png`);
  const diffPath = join(SCREENSHOT_DIR, `${name}.diff.png`);
  writeFileSync(actualPath, png);
  rmSync(diffPath, { force: true });
  const baselinePath = join(BASELINE_DIR, `${name}.png`);
  if (updating()) {
    mkdirSync(BASELINE_DIR, { recursive: true });
    writeFileSync(baselinePath, png);
    return undefined;
  }
  const shown = (path: string) => relative(process.cwd(), path);
  if (!existsSync(baselinePath)) {
    return `${name}: no baseline at ${shown(baselinePath)}; create it with ${UPDATE_COMMAND}, look at it, and commit it.`;
  }
  const expected = PNG.sync.read(readFileSync(baselinePath));
  const actual = PNG.sync.read(png);
  let what: string;
  if (expected.width !== actual.width || expected.height !== actual.height) {
    what = `the size changed (${expected.width}x${expected.height} -> ${actual.width}x${actual.height})`;
  } else {
    const { width, height } = actual;
    const diff = new PNG({ width, height });
    const changed = pixelmatch(expected.data, actual.data, diff.data, width, height, {
      threshold: COLOUR_THRESHOLD,
    });
    if (changed <= MAX_CHANGED_PIXELS) return undefined;
    writeFileSync(diffPath, PNG.sync.write(diff));
    const total = width * height;
    what = `${changed} of ${total} pixels changed (${((changed / total) * 100).toFixed(2)}%); the changes are red in ${shown(diffPath)}`;
  }
  return `${name}: ${what}. Compare ${shown(actualPath)} with ${shown(baselinePath)}; if the change is intended, run ${UPDATE_COMMAND} and commit the baselines.`;
}
