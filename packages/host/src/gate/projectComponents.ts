import { realpathSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import {
  checkFrameComponentFields,
  type FrameComponentPaths,
  type FrameComponentProblem,
} from '@platform/integration-schema';

export type { FrameComponentPaths, FrameComponentProblem };

/**
 * The frame components (`tile`, `activationForm`) of one `platform.json` integration entry of the
 * project in `projectDir`, by integration-schema's one rule (`checkFrameComponentFields`, as
 * `platform validate` applies it): each a module inside the project (a link out of it counts as
 * missing). Install builds them into the browser bundle; `problems` are what install and the gate
 * refuse.
 * @example const { components, problems } = readProjectComponents(projectDir, { slug: 'acme-notes', tile: 'src/Tile.tsx' });
 */
export function readProjectComponents(
  projectDir: string,
  entry: Readonly<Record<string, unknown>>,
): { components: FrameComponentPaths; problems: FrameComponentProblem[] } {
  return checkFrameComponentFields(entry, (path) => isFileInside(projectDir, path));
}

function isFileInside(projectDir: string, path: string): boolean {
  try {
    const root = realpathSync(projectDir);
    const real = realpathSync(resolve(root, path));
    const inside = relative(root, real);
    if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`)) return false;
    return statSync(real).isFile();
  } catch {
    return false;
  }
}
