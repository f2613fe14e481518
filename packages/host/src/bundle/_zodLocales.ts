import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

const ZOD_LOCALES_INDEX = /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/;
const IN_ZOD = /[\\/]node_modules[\\/]zod[\\/]/;

// Whether a bundled file other than zod's own names `locales` (z.locales, zod/locales, ...).
export async function mentionsLocales(inputs: readonly string[]): Promise<boolean> {
  for (const input of inputs) {
    if (IN_ZOD.test(`/${input}`) || !existsSync(input)) continue;
    if (/\blocales\b/.test(await readFile(input, 'utf8'))) return true;
  }
  return false;
}

// zod's locales index as functions that say why they are missing (reached without naming them).
export function zodLocalesLeftOut(): Plugin {
  return {
    name: 'platform-zod-locales-left-out',
    setup(build) {
      build.onLoad({ filter: ZOD_LOCALES_INDEX }, async (args) => {
        const names = [...(await readFile(args.path, 'utf8')).matchAll(/default as (\w+)/g)].map(
          (match) => match[1]!,
        );
        // One message for all: the stub is a few bytes a locale (a message each would add 13 KiB).
        const contents = [
          `const leftOut = (name) => () => { throw new Error(\`zod's locale "\${name}" is not in this bundle: no file of the project mentions \\\`locales\\\`, so the build left zod's translations out. Name them in the source (for example z.config(z.locales.\${name}())) and build again.\`); };`,
          ...names.map((name) => `export const ${name} = leftOut(${JSON.stringify(name)});`),
        ].join('\n');
        return { contents, loader: 'js' };
      });
    },
  };
}
