import { describe, expect, it } from 'vitest';
import {
  BROWSER_BUNDLE_LIMITS,
  BROWSER_BUNDLE_OPTIONS,
  BROWSER_SHARED_MODULES,
  browserBundleEntry,
  browserBundleSizeProblem,
  formatBundleSize,
} from './browserBundle.js';

describe('browserBundleSizeProblem', () => {
  it('finds nothing up to 64 KB compressed', () => {
    expect(browserBundleSizeProblem(0)).toBeUndefined();
    expect(browserBundleSizeProblem(BROWSER_BUNDLE_LIMITS.warnBytes)).toBeUndefined();
  });

  it('warns over 64 KB, naming the size, the limit and the fix', () => {
    const problem = browserBundleSizeProblem(BROWSER_BUNDLE_LIMITS.warnBytes + 1);
    expect(problem).toMatchObject({ code: 'bundle.browser-size', severity: 'warning' });
    expect(problem?.message).toContain('64.0 KB compressed, over the 64.0 KB warning limit');
    expect(problem?.hint).toMatch(/Keep widgets small/);
    expect(problem?.hint).toMatch(/server-side/);
    expect(problem?.hint).toMatch(/@platform\/ui/);
    expect(browserBundleSizeProblem(BROWSER_BUNDLE_LIMITS.errorBytes)?.severity).toBe('warning');
  });

  it('is an error over 128 KB', () => {
    const problem = browserBundleSizeProblem(300 * 1024);
    expect(problem).toMatchObject({ code: 'bundle.browser-size', severity: 'error' });
    expect(problem?.message).toBe(
      'the browser bundle is 300.0 KB compressed, over the 128.0 KB limit; the host refuses a bundle this large',
    );
  });
});

describe('the shared build configuration', () => {
  it('leaves the shared modules external and writes one minified browser ES module', () => {
    expect(BROWSER_BUNDLE_OPTIONS.external).toEqual([...BROWSER_SHARED_MODULES]);
    expect(BROWSER_BUNDLE_OPTIONS).toMatchObject({ format: 'esm', platform: 'browser', minify: true });
  });

  it('imports the definition by its file name from its folder', () => {
    expect(browserBundleEntry('integration.ts')).toContain('import definition from "./integration.ts";');
    expect(browserBundleEntry('integration.ts')).toContain('export const widgets');
  });

  it('reads sizes in KB with one decimal', () => {
    expect(formatBundleSize(65_229)).toBe('63.7 KB');
  });
});
