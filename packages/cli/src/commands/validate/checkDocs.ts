import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isDocUrl, MANIFEST_FILE } from '../../project/readManifest.js';
import { type Finding, finding } from './finding.js';

/** `docs/missing-file`: every local doc listed in the manifest exists (URLs are not checked). */
export function checkDocs(projectDir: string, docs: readonly string[]): Finding[] {
  return docs
    .filter((doc) => !isDocUrl(doc) && !existsSync(resolve(projectDir, doc)))
    .map((doc) =>
      finding('docs/missing-file', {
        message: `the doc "${doc}" listed in ${MANIFEST_FILE} does not exist`,
        path: doc,
        hint: `Create ${doc}, or remove it from docs in ${MANIFEST_FILE}.`,
      }),
    );
}
