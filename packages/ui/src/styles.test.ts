import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The stylesheet is resolved the way a partner's bundler resolves it: through the package's exports.
const require = createRequire(import.meta.url);
const css = readFileSync(require.resolve('@platform/ui/styles.css'), 'utf8');
const sources = readdirSync(import.meta.dirname, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.tsx') && !file.includes('.test'))
  .map((file) => readFileSync(join(import.meta.dirname, file), 'utf8'))
  .join('\n');

function block(selector: string): string {
  const start = css.indexOf(`${selector} {`);
  expect(start, `no "${selector}" block`).toBeGreaterThanOrEqual(0);
  return css.slice(start, css.indexOf('}', start));
}

const declared = (text: string) =>
  new Set([...text.matchAll(/(--plt-[a-z0-9-]+):/g)].map((match) => match[1]));

describe('@platform/ui/styles.css', () => {
  it('defines every custom property it uses in the light theme', () => {
    const light = declared(block('[data-platform-theme="light"]'));
    const used = new Set([...css.matchAll(/var\((--plt-[a-z0-9-]+)\)/g)].map((match) => match[1]));
    expect([...used].filter((name) => !light.has(name))).toEqual([]);
  });

  it('gives the dark theme, forced or preferred, the same colours', () => {
    const forced = declared(block('[data-platform-theme="dark"]'));
    const preferred = declared(block(':root:not([data-platform-theme="light"])'));
    const lightColours = [...declared(block('[data-platform-theme="light"]'))].filter(
      (name) => name?.startsWith('--plt-color') || name?.startsWith('--plt-shadow'),
    );
    expect(lightColours.filter((name) => !forced.has(name))).toEqual([]);
    expect([...preferred].sort()).toEqual([...forced].sort());
    expect(css).toContain('@media (prefers-color-scheme: dark)');
  });

  it('turns animations and transitions off for reduced motion', () => {
    const start = css.indexOf('@media (prefers-reduced-motion: reduce)');
    expect(start).toBeGreaterThanOrEqual(0);
    expect(css.slice(start)).toMatch(/animation: none !important;[\s\S]*transition: none !important;/);
  });

  it('styles every class the components use', () => {
    const styled = new Set([...css.matchAll(/\.(plt-[a-z0-9_-]+)/g)].map((match) => match[1]));
    const used = new Set([...sources.matchAll(/\bplt-[a-z0-9_-]+/g)].map((match) => match[0]));
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((name) => !styled.has(name))).toEqual([]);
  });

  it('shows a focus ring for keyboard focus', () => {
    expect(css).toMatch(
      /\.plt-widget :focus-visible[\s\S]*?outline: 2px solid var\(--plt-focus-ring-color\)/,
    );
  });
});
