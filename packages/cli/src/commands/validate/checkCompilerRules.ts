import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseTsconfig } from 'get-tsconfig';
import { type Finding, finding } from './finding.js';

const HINT =
  'Set "noUncheckedIndexedAccess": true in compilerOptions of tsconfig.json; the host gate compiles under strict and noUncheckedIndexedAccess, and publish refuses without it.';

/**
 * `project.host-compiler-rules`: the project's tsconfig.json (with its `extends` chain) must enable
 * `noUncheckedIndexedAccess`, as the host gate's `checks/typecheck-host-rules` does.
 */
export function checkCompilerRules(projectDir: string): Finding[] {
  const path = join(projectDir, 'tsconfig.json');
  if (!existsSync(path)) {
    return [
      finding('project.host-compiler-rules', {
        message: 'the project has no tsconfig.json',
        path: 'tsconfig.json',
        hint: HINT,
      }),
    ];
  }
  let enabled: boolean;
  try {
    enabled = parseTsconfig(path).compilerOptions?.noUncheckedIndexedAccess === true;
  } catch (error) {
    return [
      finding('project.host-compiler-rules', {
        message: `tsconfig.json cannot be read: ${(error as Error).message}`,
        path: 'tsconfig.json',
        hint: `Fix tsconfig.json so it parses (and its extends resolve), then: ${HINT}`,
      }),
    ];
  }
  if (enabled) return [];
  return [
    finding('project.host-compiler-rules', {
      message: 'tsconfig.json does not enable noUncheckedIndexedAccess in compilerOptions',
      path: 'tsconfig.json',
      hint: HINT,
    }),
  ];
}
