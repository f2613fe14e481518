import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ViteDevServer } from 'vite';
import { toCliError } from '../../cli/CliError.js';
import { plural, type Style } from '../../cli/terminal.js';
import { validateCommand } from '../validate/command.js';
import type { Finding } from '../validate/finding.js';
import { type ValidateReport, validateProject } from '../validate/validateProject.js';
import { isLoopbackHost } from './isLoopbackAddress.js';
import {
  describeLoadFailure,
  HARNESS_CONFIG_FILE,
  type LoadFailure,
  type PageLoadFailure,
  pageLoadFailure,
  renderLoadFailure,
} from './loadFailure.js';

export { HARNESS_CONFIG_FILE };

/** The variable the harness API reads to answer non-loopback hosts. */
export const EXPOSE_VARIABLE = 'PLATFORM_HARNESS_EXPOSE';

// The parts of `@platform/harness/api` used here (the CLI does not depend on the harness: the
// project's own copy is loaded, through Vite, with the project's own packages).
interface HarnessApiModule {
  createHarnessApiHandlers(
    registry: readonly unknown[],
    options: {
      projectDir: string;
      env: Readonly<Record<string, string | undefined>>;
      log: (line: string) => void;
    },
  ): { fetch(request: Request): Promise<Response> };
}

// The part of `@platform/sdk/runtime` used here: the redaction rule of the host's logs.
interface SdkRuntimeModule {
  redactText(text: string): string;
}

type HarnessState =
  | {
      readonly ok: true;
      readonly registry: readonly unknown[];
      readonly create: HarnessApiModule['createHarnessApiHandlers'];
      readonly handlers: { fetch(request: Request): Promise<Response> };
    }
  | { readonly ok: false; readonly failure: LoadFailure };

/** What `createDevHarness` needs. */
export interface DevHarnessOptions {
  readonly vite: ViteDevServer;
  readonly projectDir: string;
  /** Passed to the handlers (`PLATFORM_HARNESS_EXPOSE`) and to validation. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The server's log (stderr): one call per message, newline included. */
  readonly log: (text: string) => void;
  readonly style: Style;
  /** Told each time the load fails (what the page's overlay shows) or recovers (`null`). */
  readonly onStatus?: (failure: PageLoadFailure | null) => void;
}

/** The API half of `platform dev`: the harness handlers on the project's current `harness.config.ts`. */
export interface DevHarness {
  /** Answers one `/api/integrations/...` request (after any load under way). */
  fetch(request: Request): Promise<Response>;
  /** Loads `harness.config.ts` again (after a save); loads already queued are not repeated. */
  reload(): Promise<void>;
  /** Whether the last load failed (a save anywhere in the project then retries). */
  readonly failed: boolean;
  /** The last load's failure as the page shows it, or `null` when it loaded (after any load under way). */
  status(): Promise<PageLoadFailure | null>;
}

/**
 * Loads `harness.config.ts` (and the project's `@platform/harness/api`) through Vite's SSR loader,
 * so a save takes effect on the next request, and keeps one handlers instance per loaded registry
 * (it holds the fixture state of each variant). When loading fails it prints the error and the
 * findings `platform validate` prints, and answers the API with 503 until a reload succeeds.
 */
export async function createDevHarness(options: DevHarnessOptions): Promise<DevHarness> {
  const { log, style } = options;
  const configPath = join(options.projectDir, HARNESS_CONFIG_FILE);
  let state: HarnessState | undefined;
  let queued = false;

  type Loaded = Extract<HarnessState, { ok: true }> | { readonly ok: false; readonly thrown: unknown };

  const load = async (): Promise<Loaded> => {
    try {
      if (!existsSync(configPath)) {
        throw new Error(
          `No ${HARNESS_CONFIG_FILE} in ${options.projectDir}; create it (\`platform init\` writes one) exporting harnessIntegrations = defineHarnessConfig([...]).`,
        );
      }
      const api = (await options.vite.ssrLoadModule('@platform/harness/api')) as HarnessApiModule;
      const config = await options.vite.ssrLoadModule(configPath);
      const registry: unknown = config.harnessIntegrations;
      if (!Array.isArray(registry)) {
        throw new Error(
          `${HARNESS_CONFIG_FILE} does not export harnessIntegrations; export it: \`export const harnessIntegrations = defineHarnessConfig([...])\`.`,
        );
      }
      if (
        state?.ok === true &&
        state.registry === registry &&
        state.create === api.createHarnessApiHandlers
      ) {
        return state;
      }
      const handlers = api.createHarnessApiHandlers(registry, {
        projectDir: options.projectDir,
        env: options.env,
        log: (line) => log(`${line}\n`),
      });
      return { ok: true, registry, create: api.createHarnessApiHandlers, handlers };
    } catch (thrown) {
      return { ok: false, thrown };
    }
  };

  const loadAndReport = async (): Promise<void> => {
    const previous = state;
    const next = await load();
    if (next.ok) {
      state = next;
      if (next === previous) return;
      const slugs = next.registry.map((entry) => (entry as { slug?: unknown }).slug).join(', ');
      const verb = previous === undefined ? 'Loaded' : previous.ok ? 'Reloaded' : 'Recovered: loaded';
      log(
        `${style.green(verb)} ${HARNESS_CONFIG_FILE} (${plural(next.registry.length, 'integration')}: ${slugs || 'none'}).\n`,
      );
      if (previous !== undefined && !previous.ok) options.onStatus?.(null);
      return;
    }
    const report = await validate(options);
    const failure = describeLoadFailure({
      thrown: next.thrown,
      projectDir: options.projectDir,
      findings: report?.findings ?? [],
      redact: await loadRedaction(options.vite),
    });
    log(
      renderLoadFailure(
        failure,
        style,
        report === undefined ? undefined : validateCommand.render(report, style),
      ),
    );
    state = { ok: false, failure };
    options.onStatus?.(pageLoadFailure(failure));
  };

  let current = loadAndReport();
  await current;

  return {
    get failed() {
      return state?.ok !== true;
    },
    reload() {
      if (queued) return current;
      queued = true;
      current = current.then(() => {
        queued = false;
        return loadAndReport();
      });
      return current;
    },
    async status() {
      await current;
      return state === undefined || state.ok ? null : pageLoadFailure(state.failure);
    },
    async fetch(request) {
      await current;
      if (state?.ok === true) return state.handlers.fetch(request);
      return unavailable(
        request,
        state?.failure.message ?? 'The harness is starting.',
        state?.failure.findings ?? [],
        options.env,
      );
    },
  };
}

// Validation is what explains most failures (a definition that throws, a missing entry); its
// report is printed as `platform validate` prints it, inside the failure's text.
async function validate(options: DevHarnessOptions): Promise<ValidateReport | undefined> {
  try {
    return await validateProject({ cwd: options.projectDir, env: options.env });
  } catch (thrown) {
    const error = toCliError(thrown);
    options.log(`${options.style.red('platform validate could not run:')} ${error.message}\n${error.hint}\n`);
    return undefined;
  }
}

// The host's redaction rule, from the project's own @platform/sdk (as the harness API is loaded).
// Should it not load, every URL is withheld rather than shown unredacted.
async function loadRedaction(vite: ViteDevServer): Promise<(text: string) => string> {
  try {
    const runtime = (await vite.ssrLoadModule('@platform/sdk/runtime')) as SdkRuntimeModule;
    if (typeof runtime.redactText === 'function') return (text) => runtime.redactText(text);
  } catch {
    // Falls through to the stricter rule.
  }
  return (text) => text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<URL withheld>');
}

// Still the loopback rule of the handlers: a failed load must not open the API to other hosts.
function unavailable(
  request: Request,
  message: string,
  findings: readonly Finding[],
  env: Readonly<Record<string, string | undefined>>,
): Response {
  const host = request.headers.get('host') ?? new URL(request.url).host;
  if (env[EXPOSE_VARIABLE] !== '1' && !isLoopbackHost(host)) {
    return Response.json(
      {
        ok: false,
        error: {
          code: 'forbidden',
          message: `The harness API answers loopback hosts only (localhost, 127.0.0.0/8, [::1]), not "${host}".`,
        },
      },
      { status: 403 },
    );
  }
  return Response.json(
    {
      ok: false,
      error: {
        code: 'harness_unavailable',
        message: `${HARNESS_CONFIG_FILE} failed to load: ${message}`,
        findings,
      },
    },
    { status: 503 },
  );
}
