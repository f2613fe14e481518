import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join, parse, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

// Every node_modules folder above this package, nearest first: where the host's own @platform/sdk is.
export function hostNodePaths(): string[] {
  const paths: string[] = [];
  let dir = fileURLToPath(new URL('../../', import.meta.url));
  while (true) {
    paths.push(join(dir, 'node_modules'));
    if (dir === parse(dir).root) return paths;
    dir = dirname(dir);
  }
}

/** Refuses to load any file outside `roots` (compared by real path). */
export function confine(roots: readonly string[]): Plugin {
  const real = roots.map((root) => realpathSync(root));
  const inside = (file: string) =>
    real.some((root) => {
      const rel = relative(root, file);
      return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep);
    });
  return {
    name: 'platform-confine',
    setup(build) {
      build.onLoad({ filter: /.*/ }, (args) => {
        if (args.namespace !== 'file' || inside(realpathSync(args.path))) return undefined;
        return {
          errors: [
            {
              text: `${args.path} is outside the project; a bundle may only include the project's own files and its installed dependencies`,
            },
          ],
        };
      });
    },
  };
}

// The host's node_modules folders, and where its `@platform/*` packages really are (in this
// checkout, workspace links to packages/*).
export function hostPackageFolders(): string[] {
  const folders: string[] = [];
  for (const dir of hostNodePaths().filter((path) => existsSync(path))) {
    folders.push(dir);
    const scope = join(dir, '@platform');
    if (!existsSync(scope)) continue;
    for (const name of readdirSync(scope)) folders.push(realpathSync(join(scope, name)));
  }
  return folders;
}
