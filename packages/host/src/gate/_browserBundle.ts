import { resolve } from 'node:path';
import {
  BROWSER_BUNDLE_CODES,
  browserBundleSizeProblem,
  formatBundleSize,
} from '@platform/integration-schema';
import { type BrowserBundle, buildBrowserBundle } from '../bundle/buildBrowserBundle.js';
import type { CheckLog } from './_checkLog.js';
import { finding } from './_finding.js';
import { projectPath } from './_loadDefinitions.js';
import type { Finding } from './GateResult.js';
import type { FrameComponentPaths } from './projectComponents.js';

const MAX_BUILD_ERRORS = 5;

interface EsbuildMessage {
  text: string;
  location: { file: string; line: number } | null;
}

/**
 * The `bundle` check's part for one integration with widgets, a tile or an activation form: its browser bundle built as install
 * builds it (confined to the project), a `bundle.browser-build` finding per esbuild error when it
 * does not build, else its compressed size in the log and `bundle.browser-size` over the limits.
 */
export async function gateBrowserBundle(options: {
  projectDir: string;
  slug: string;
  entry: string;
  /** The project's tile and activation form (paths inside it, as `readProjectComponents` found them). */
  components: FrameComponentPaths;
  log: CheckLog;
}): Promise<{ bundle?: BrowserBundle; findings: Finding[] }> {
  const { projectDir, slug, entry, components, log } = options;
  let bundle: BrowserBundle;
  try {
    bundle = await buildBrowserBundle(resolve(projectDir, entry), {
      confineTo: [projectDir],
      ...(components.tile === undefined ? {} : { tile: resolve(projectDir, components.tile) }),
      ...(components.activationForm === undefined
        ? {}
        : { activationForm: resolve(projectDir, components.activationForm) }),
    });
  } catch (error) {
    log.line(`${slug}: the browser bundle does not build`);
    return { findings: buildFindings(projectDir, slug, entry, error) };
  }
  log.line(`${slug}: browser bundle ${formatBundleSize(bundle.gzipBytes)} compressed`);
  const problem = browserBundleSizeProblem(bundle.gzipBytes);
  if (problem === undefined) return { bundle, findings: [] };
  return {
    bundle,
    findings: [
      finding('bundle', problem.code, `${slug}: ${problem.message}`, {
        severity: problem.severity,
        file: entry,
        hint: problem.hint,
      }),
    ],
  };
}

function buildFindings(projectDir: string, slug: string, entry: string, error: unknown): Finding[] {
  const errors = (error as { errors?: EsbuildMessage[] } | null)?.errors;
  const messages: EsbuildMessage[] =
    Array.isArray(errors) && errors.length > 0
      ? errors.slice(0, MAX_BUILD_ERRORS)
      : [{ text: (error as Error).message, location: null }];
  return messages.map((message) => {
    const file = message.location === null ? entry : projectPath(projectDir, message.location.file);
    return finding(
      'bundle',
      BROWSER_BUNDLE_CODES.build,
      `${slug}: the browser bundle (its widgets, for the dashboard) does not build: ${message.text}`,
      {
        file,
        line: message.location?.line,
        hint: `Fix what stops ${file} from building for the browser: widgets may import only the project's files, its installed packages and the host's shared libraries.`,
      },
    );
  });
}
