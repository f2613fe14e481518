// Debian's Chromium as the browser tests and `npm run bench -- dev` / `dashboard` drive it (no
// vitest here, so the benchmarks can import it too), a free loopback port, and the one axe-core
// check every browser test uses (the CLI's `_browser.ts` and the host's `test/_browser.ts`).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';

/** The Chromium driven: `PLATFORM_CHROMIUM`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM = process.env.PLATFORM_CHROMIUM ?? '/usr/bin/chromium';

const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');

/** Launches headless Chromium with the flags this machine needs, plus `extraArgs`. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/**
 * Why the browser tests cannot run here, or undefined when they can. Under CI a missing browser is
 * a failure (`.ci/run` installs it), not a skip.
 */
export function browserMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `no Chromium at ${CHROMIUM}: run \`bash scripts/ensure-chromium.sh\` (or set PLATFORM_CHROMIUM)`;
  if (process.env.CI === 'true') throw new Error(`The browser tests need Chromium under CI: ${reason}.`);
  process.stderr.write(`[browser tests] skipped: ${reason}\n`);
  return reason;
}

/** A loopback port free right now (for a server that must know its URL before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let axeSource: string | undefined;
/** axe-core's browser build (the root dev dependency), read once. */
function axe(): string {
  axeSource ??= readFileSync(
    createRequire(import.meta.url).resolve('axe-core/axe.min.js', { paths: [REPO_ROOT] }),
    'utf8',
  );
  return axeSource;
}

/** One axe-core violation, trimmed to what a failing test should print. */
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  /** Where: `page`, or the frame's URL for a violation inside a frame. */
  readonly frame: string;
  readonly targets: string[];
  /** What axe says is wrong with the first element (colours and ratio for contrast). */
  readonly summary: string;
}

/** axe-core (WCAG 2 A/AA rules) in one frame's document, its own iframes left to their own run. */
async function violationsIn(frame: Frame, where: string): Promise<AxeViolation[]> {
  // Evaluated through the driver, not injected as a <script>: the pages' CSPs allow no inline
  // script, and a sandboxed widget frame runs only its bundle and the shared runtime.
  await frame.evaluate(axe());
  const found = await frame.evaluate(async () => {
    const run = (
      globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<any> } }
    ).axe;
    const result = await run.run(document, {
      iframes: false,
      // No fetching of stylesheets the document cannot read (only css-orientation-lock uses them):
      // a widget frame's CSP connects nowhere, and the refused fetch would be a console error.
      preload: false,
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return (result.violations as any[]).map((violation) => ({
      id: String(violation.id),
      impact: (violation.impact ?? null) as string | null,
      help: String(violation.help),
      targets: (violation.nodes as any[]).slice(0, 5).map((node) => String(node.target)),
      summary: String(violation.nodes[0]?.failureSummary ?? ''),
    }));
  });
  return found.map((violation) => ({ ...violation, frame: where }));
}

/**
 * Runs axe-core (WCAG 2 A/AA rules) on the page as it is and returns the serious and critical
 * violations; with `frames: true`, also inside every iframe of the page (each widget frame is its
 * own document, often of an opaque origin, so axe runs in each through the driver).
 * @example expect(await seriousAxeViolations(page, { frames: true })).toEqual([]);
 */
export async function seriousAxeViolations(
  page: Page,
  options: { readonly frames?: boolean } = {},
): Promise<AxeViolation[]> {
  const violations = await violationsIn(page.mainFrame(), 'page');
  if (options.frames === true)
    for (const frame of page.frames()) {
      if (frame === page.mainFrame() || frame.isDetached()) continue;
      violations.push(...(await violationsIn(frame, frame.url())));
    }
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
