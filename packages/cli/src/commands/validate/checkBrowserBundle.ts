import { existsSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  BROWSER_BUNDLE_OPTIONS,
  type BrowserBundleComponents,
  browserBundleEntry,
  browserBundleSizeProblem,
  definitionWidgetsOnly,
  formatBundleSize,
  mentionsZodLocales,
  serverSideImports,
  zodLocalesLeftOut,
} from '@platform/integration-schema';
import type { Message, Plugin } from 'esbuild';
import { type Finding, finding } from './finding.js';

const MAX_BUILD_ERRORS = 5;

const readText = async (path: string) => (existsSync(path) ? readFile(path, 'utf8') : undefined);

/** What validate found of one integration's browser bundle: its gzip size when it built, and findings. */
export interface BrowserBundleCheck {
  readonly gzipBytes: number | null;
  readonly findings: readonly Finding[];
}

/**
 * Builds an integration's browser bundle (its widgets, as the host's dashboard frames load them)
 * with the host's configuration, integration-schema's `BROWSER_BUNDLE_OPTIONS` (the same bytes the
 * host's install and gate build), and measures it gzipped: `bundle.browser-size` over the limits,
 * `bundle.browser-build` per esbuild error when it does not build.
 */
export async function checkBrowserBundle(
  projectDir: string,
  entry: string,
  components: BrowserBundleComponents = {},
): Promise<BrowserBundleCheck> {
  const entryPath = resolve(projectDir, entry);
  const esbuild = await import('esbuild');
  const buildOnce = async (leaveOutZodLocales: boolean, widgetsOnly?: Plugin) => {
    const result = await esbuild.build({
      ...BROWSER_BUNDLE_OPTIONS,
      external: [...BROWSER_BUNDLE_OPTIONS.external],
      conditions: [...BROWSER_BUNDLE_OPTIONS.conditions],
      stdin: {
        contents: browserBundleEntry(basename(entryPath), components),
        resolveDir: dirname(entryPath),
        sourcefile: `${basename(entryPath)}.browser.js`,
        loader: 'js',
      },
      absWorkingDir: projectDir,
      write: false,
      metafile: true,
      plugins: [
        ...(leaveOutZodLocales ? [zodLocalesLeftOut(readText) as Plugin] : []),
        ...(widgetsOnly === undefined ? [] : [widgetsOnly]),
      ],
    });
    const output = result.outputFiles[0];
    if (output === undefined) throw new Error(`esbuild wrote no browser bundle for ${entry}`);
    return { bytes: output.contents, inputs: Object.keys(result.metafile.inputs), metafile: result.metafile };
  };
  let bytes: Uint8Array;
  try {
    // As on the host: a first build finds the definition's server-side imports, the second leaves
    // them out; zod's translations stay out unless a file names them.
    const whole = await buildOnce(true);
    const server = serverSideImports(whole.metafile, basename(entryPath));
    const widgetsOnly =
      server.size === 0
        ? undefined
        : (definitionWidgetsOnly([entryPath, realpathSync(entryPath)], server) as Plugin);
    const lean = widgetsOnly === undefined ? whole : await buildOnce(true, widgetsOnly);
    const inputs = lean.inputs.map((input) => resolve(projectDir, input));
    bytes = (await mentionsZodLocales(inputs, readText))
      ? (await buildOnce(false, widgetsOnly)).bytes
      : lean.bytes;
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors;
    if (!Array.isArray(errors) || errors.length === 0) throw error;
    return {
      gzipBytes: null,
      findings: errors.slice(0, MAX_BUILD_ERRORS).map((item) => buildFinding(projectDir, entry, item)),
    };
  }
  const gzipBytes = gzipSync(bytes).byteLength;
  const problem = browserBundleSizeProblem(gzipBytes);
  return {
    gzipBytes,
    findings:
      problem === undefined
        ? []
        : [
            finding(problem.code, {
              severity: problem.severity,
              message: `${entry}: ${problem.message}`,
              path: entry,
              hint: problem.hint,
            }),
          ],
  };
}

function buildFinding(projectDir: string, entry: string, message: Message): Finding {
  const file =
    message.location === null
      ? entry
      : relative(projectDir, resolve(projectDir, message.location.file)).split(sep).join('/');
  const at = message.location === null ? file : `${file}:${message.location.line}`;
  return finding('bundle.browser-build', {
    message: `${entry}: the browser bundle (its widgets, for the dashboard) does not build: ${message.text}`,
    path: at,
    hint: `Fix what stops ${file} from building for the browser: widgets may import only the project's files, its installed packages and the host's shared libraries.`,
  });
}

/** `browser bundle: 63.7 KB compressed`, as validate prints it. */
export const browserBundleLine = (gzipBytes: number) =>
  `browser bundle: ${formatBundleSize(gzipBytes)} compressed`;
