import { realpathSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { checkFrameComponentFields, type FrameComponentProblem } from '@platform/integration-schema';
import { MANIFEST_FILE, type ManifestIntegration } from '../../project/readManifest.js';
import { type Finding, finding } from './finding.js';

/**
 * `project.components`: the frame components of each `platform.json` integration entry (`tile`,
 * `activationForm`: a module of the project whose default export is the component), by
 * integration-schema's one rule (`checkFrameComponentFields`, the rule the host's install and gate
 * apply): a relative `.tsx`/`.ts`/`.jsx`/`.js` path to a file inside the project.
 */
export function checkComponents(projectDir: string, integrations: readonly ManifestIntegration[]): Finding[] {
  const exists = (path: string) => isFileInside(projectDir, path);
  return integrations.flatMap((integration, index) =>
    checkFrameComponentFields(integration.raw, exists).problems.map((problem) =>
      componentFinding(integration, index, problem),
    ),
  );
}

/**
 * The frame components of one entry that pass the rule, as absolute paths: what the browser bundle
 * exports beside the widgets (`tile`, `activationForm`), as the host's install and gate build it.
 */
export function frameComponentsOf(
  projectDir: string,
  integration: ManifestIntegration,
): { tile?: string; activationForm?: string } {
  const { components } = checkFrameComponentFields(integration.raw, (path) => isFileInside(projectDir, path));
  return {
    ...(components.tile === undefined ? {} : { tile: resolve(projectDir, components.tile) }),
    ...(components.activationForm === undefined
      ? {}
      : { activationForm: resolve(projectDir, components.activationForm) }),
  };
}

function componentFinding(
  integration: ManifestIntegration,
  index: number,
  problem: FrameComponentProblem,
): Finding {
  return finding('project.components', {
    message: `${MANIFEST_FILE}: ${integration.slug}: ${problem.message}`,
    path: `${MANIFEST_FILE} integrations.${index}.${problem.field}`,
    hint: problem.hint,
  });
}

// A link out of the project counts as missing, as the host's install and gate see it.
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
