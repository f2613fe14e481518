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
