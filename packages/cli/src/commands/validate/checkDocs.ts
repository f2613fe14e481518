import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { MANIFEST_FILE } from '../../project/readManifest.js';
import { type Finding, finding } from './finding.js';

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** `docs/missing-file`: every local doc listed in the manifest exists (URLs are not checked). */
export function checkDocs(projectDir: string, docs: readonly string[]): Finding[] {
  return docs
    .filter((doc) => !HAS_SCHEME.test(doc) && !existsSync(resolve(projectDir, doc)))
    .map((doc) =>
      finding('docs/missing-file', {
        message: `the doc "${doc}" listed in ${MANIFEST_FILE} does not exist`,
        path: doc,
        hint: `Create ${doc}, or remove it from docs in ${MANIFEST_FILE}.`,
      }),
    );
}
