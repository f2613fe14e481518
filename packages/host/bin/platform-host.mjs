#!/usr/bin/env node
// `platform-host`: the built host CLI where the package is installed; in a checkout of the repository (the
// package is not under node_modules) its sources through tsx with the `@platform/source` condition,
// so the command on PATH needs no build and is never a stale one.
import { realpathSync } from 'node:fs';
import { register } from 'node:module';

if (/[\\/]node_modules[\\/]/.test(realpathSync(new URL(import.meta.url)))) {
  await import('../dist/bin.js');
} else {
  (await import('tsx/esm/api')).register();
  const condition = `export const resolve = (s, c, next) => next(s, { ...c, conditions: [...c.conditions, '@platform/source'] });`;
  register(`data:text/javascript,${encodeURIComponent(condition)}`);
  await import('../src/bin.ts');
}
