// zod's translated error messages (every language: hundreds of KiB) stay out of a bundle unless a
// bundled file outside zod names zod's translations (the word WORD below). Shared by the host's
// server and browser bundles and the CLI's browser bundle, so both sides measure the same bytes;
// the caller reads files (no Node here). This file never spells that word whole: every bundle that
// includes integration-schema reads it, and would otherwise always carry the translations.
const WORD = ['local', 'es'].join('');
const MENTION = new RegExp(`\\b${WORD}\\b`);

/** Reads a file's text, or undefined when there is none (the caller's `fs`). */
export type ReadText = (path: string) => Promise<string | undefined>;

/** The part of esbuild's plugin API this plugin uses (this package does not depend on esbuild). */
export interface OnLoadPlugin {
  readonly name: string;
  setup(build: {
    onLoad(
      options: { filter: RegExp },
      callback: (args: { path: string }) => Promise<{ contents: string; loader: 'js' }>,
    ): void;
  }): void;
}

const ZOD_LOCALES_INDEX = /[\\/]zod[\\/]v4[\\/]locale[s][\\/]index\.js$/;
const IN_ZOD = /[\\/]node_modules[\\/]zod[\\/]/;

/**
 * Whether a bundled file other than zod's own names zod's translations (`z.<WORD>`, `zod/<WORD>`):
 * then the bundle is built again with them. `inputs` are esbuild's metafile inputs.
 */
export async function mentionsZodLocales(inputs: readonly string[], readText: ReadText): Promise<boolean> {
  for (const input of inputs) {
    if (IN_ZOD.test(`/${input}`)) continue;
    const text = await readText(input);
    if (text !== undefined && MENTION.test(text)) return true;
  }
  return false;
}

/**
 * An esbuild plugin loading zod's translations index as functions that say why they are missing
 * (reached without naming them).
 * @example plugins: [zodLocalesLeftOut((path) => readFile(path, 'utf8'))]
 */
export function zodLocalesLeftOut(readText: ReadText): OnLoadPlugin {
  return {
    name: 'platform-zod-translations-left-out',
    setup(build) {
      build.onLoad({ filter: ZOD_LOCALES_INDEX }, async (args) => {
        const names = [...((await readText(args.path)) ?? '').matchAll(/default as (\w+)/g)].map(
          (match) => match[1]!,
        );
        // One message for all: the stub is a few bytes a locale (a message each would add 13 KiB).
        const contents = [
          `const leftOut = (name) => () => { throw new Error(\`zod's locale "\${name}" is not in this bundle: no file of the project mentions \\\`${WORD}\\\`, so the build left zod's translations out. Name them in the source (for example z.config(z.${WORD}.\${name}())) and build again.\`); };`,
          ...names.map((name) => `export const ${name} = leftOut(${JSON.stringify(name)});`),
        ].join('\n');
        return { contents, loader: 'js' };
      });
    },
  };
}
