import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { zodLocalesLeftOut as leftOut, mentionsZodLocales } from '@platform/integration-schema';
import type { Plugin } from 'esbuild';

// integration-schema's rule (the CLI's validate builds with it too), reading this host's files.
const readText = async (path: string) => (existsSync(path) ? readFile(path, 'utf8') : undefined);

// Whether a bundled file other than zod's own names `locales` (z.locales, zod/locales, ...).
export const mentionsLocales = (inputs: readonly string[]): Promise<boolean> =>
  mentionsZodLocales(inputs, readText);

// zod's locales index as functions that say why they are missing (reached without naming them).
export const zodLocalesLeftOut = (): Plugin => leftOut(readText) as Plugin;
