// The visual check itself: a baseline compared with itself passes, and a 20 px block painted over
// it fails with the count and a diff image (pngjs + pixelmatch, the tolerance of _visual.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { BASELINE_DIR, compareWithBaseline, SCREENSHOT_DIR } from './_visual.js';

const name = readdirSync(BASELINE_DIR)
  .filter((file) => file.endsWith('.png'))
  .sort()[0]
  ?.replace(/\.png$/, '');

describe.skipIf(name === undefined || process.env.UPDATE_BASELINES === '1')('compareWithBaseline', () => {
  it('passes the baseline itself and fails a 20 px block painted over it, writing the diff', () => {
    const original = readFileSync(join(BASELINE_DIR, `${name}.png`));
    const image = PNG.sync.read(original);
    for (let y = 10; y < 30; y++) {
      for (let x = 10; x < 30; x++) {
        const i = (y * image.width + x) * 4;
        image.data[i] = 255;
        image.data[i + 1] = 0;
        image.data[i + 2] = 255;
        image.data[i + 3] = 255;
      }
    }
    const problem = compareWithBaseline(PNG.sync.write(image), name!);
    // Up to 400 pixels: pixelmatch leaves out those it reads as antialiasing.
    const changed = Number(/(\d+) of \d+ pixels changed/.exec(problem ?? '')?.[1]);
    expect(changed, problem).toBeGreaterThan(200);
    expect(changed).toBeLessThanOrEqual(400);
    expect(existsSync(join(SCREENSHOT_DIR, `${name}.diff.png`))).toBe(true);
    // The real shot again: nothing moved, and the kept screenshot is the real one.
    expect(compareWithBaseline(original, name!)).toBeUndefined();
  });
});
