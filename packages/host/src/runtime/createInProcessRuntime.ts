import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseDefinition } from '@platform/integration-schema';
import type { AnyIntegrationDefinition } from '@platform/sdk/integration';
import {
  ACTION_FAILED_MESSAGE,
  type Capabilities,
  createContext,
  deliverWebhook,
  describeDefinition,
  invokeAction,
  invokeTool,
  parseWebhookPayload,
  readManifest,
  readToolEnvelope,
  replyToWebhook,
  runActivate,
  runOnTokens,
  runSchedule,
  TOOL_FAILED_MESSAGE,
  type ToolEnvelope,
} from '@platform/sdk/runtime';
import type { Runtime, RuntimeCall, RuntimeVersion, WebhookPayloadVerdict } from './Runtime.js';

/**
 * Runs partner code in the host's own process. Same guest engine and capabilities as the isolated
 * runtime, but NOT a security boundary: for tests and local development only.
 * @example const runtime = createInProcessRuntime({ onWarning: (message) => logger.warn(message) });
 */
export function createInProcessRuntime(
  options: { bundleDir?: string; onWarning?: (message: string) => void } = {},
): Runtime {
  const bundleDir = options.bundleDir ?? join(tmpdir(), `platform-bundles-${process.pid}`);
  const loaded = new Map<string, Promise<AnyIntegrationDefinition>>();
  // Calls answered (or past their budget): a handler still running in process saves nothing more.
  const ended = new WeakSet<RuntimeCall>();
  options.onWarning?.('in-process runtime: partner code runs in the host process and is NOT isolated');

  function load(version: RuntimeVersion): Promise<AnyIntegrationDefinition> {
    let definition = loaded.get(version.id);
    if (definition === undefined) {
      definition = (async () => {
        await mkdir(bundleDir, { recursive: true });
        const file = join(bundleDir, `${version.id}.mjs`);
        // Written aside and renamed into place: runtimes sharing the folder (two hosts in one
        // process) never import a file another is still writing.
        const partial = `${file}.${randomBytes(6).toString('hex')}.tmp`;
        try {
          await writeFile(partial, await version.loadBundle());
          await rename(partial, file);
        } catch (error) {
          await rm(partial, { force: true });
          throw error;
        }
        const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
        const result = parseDefinition(module.default);
        if (!result.ok) throw result.error;
        return module.default as AnyIntegrationDefinition;
      })();
      definition.catch(() => loaded.delete(version.id));
      loaded.set(version.id, definition);
    }
    return definition;
  }

  // The handler cannot be stopped in process; past its budget the call answers and its writes are dropped.
  async function withinBudget<T>(call: RuntimeCall, run: Promise<T>, onTimeout: () => T): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<T>((resolve) => {
      timer = setTimeout(() => {
        call.capabilities.log({
          level: 'error',
          message: `handler exceeded its ${call.timeoutMs} ms budget`,
        });
        resolve(onTimeout());
      }, call.timeoutMs);
    });
    try {
      return await Promise.race([run, timeout]);
    } finally {
      clearTimeout(timer);
      ended.add(call);
    }
  }

  async function context(call: RuntimeCall) {
    const definition = await load(call.version);
    return {
      definition,
      // The budget's timer (withinBudget) starts right after this: its end is ctx.remainingMs()'s.
      ctx: createContext({
        definition,
        capabilities: untilEnded(call, ended),
        actor: call.actor,
        deadline: Date.now() + call.timeoutMs,
      }),
    };
  }

  const timedOut = (message: string) => ({
    ok: false as const,
    error: { code: 'handler_error' as const, message },
  });

  return {
    isolated: false,
    async describe(version) {
      // The same check as the isolated runtime's, so both refuse the same manifests.
      return readManifest(describeDefinition(await load(version)));
    },
    async invokeAction(call) {
      const { definition, ctx } = await context(call);
      return withinBudget(
        call,
        invokeAction(definition, call.actionName, call.rawBody, ctx, { mode: 'production' }),
        () => timedOut(ACTION_FAILED_MESSAGE),
      );
    },
    async invokeTool(call) {
      const { definition, ctx } = await context(call);
      return readToolEnvelope(
        await withinBudget(
          call,
          invokeTool(definition, call.toolName, call.args, ctx, { mode: 'production' }),
          (): ToolEnvelope => ({
            ok: false,
            error: { code: 'handler_error', message: TOOL_FAILED_MESSAGE, isPublic: false },
          }),
        ),
      );
    },
    async parseWebhookPayload(call) {
      const definition = await load(call.version);
      return rejectAfter(
        parseWebhookPayload(definition, call.webhookId, call.rawBody, call.contentType).then(
          (parsed): WebhookPayloadVerdict => (parsed.ok ? { ok: true } : parsed),
        ),
        call.timeoutMs,
        `payload validation exceeded ${call.timeoutMs} ms`,
      );
    },
    async replyToWebhook(call) {
      const definition = await load(call.version);
      return rejectAfter(
        replyToWebhook(definition, call.webhookId, call.rawBody, call.request),
        call.timeoutMs,
        `the webhook's reply exceeded ${call.timeoutMs} ms`,
      );
    },
    async deliverWebhook(call) {
      const { definition, ctx } = await context(call);
      return withinBudget(
        call,
        deliverWebhook(definition, call.webhookId, call.rawBody, ctx, call.request),
        () => timedOut(`webhook handler exceeded ${call.timeoutMs} ms`),
      );
    },
    async runSchedule(call) {
      const { definition, ctx } = await context(call);
      return withinBudget(call, runSchedule(definition, call.scheduleId, ctx), () =>
        timedOut(`schedule handler exceeded ${call.timeoutMs} ms`),
      );
    },
    async runActivate(call) {
      const { definition, ctx } = await context(call);
      return withinBudget(call, runActivate(definition, ctx), () =>
        timedOut(`onActivate exceeded ${call.timeoutMs} ms`),
      );
    },
    async runOnTokens(call) {
      const { definition, ctx } = await context(call);
      return withinBudget(call, runOnTokens(definition, ctx, call.tokens), () => ({
        ok: false as const,
        error: { code: 'save_failed' as const, message: `onTokens exceeded ${call.timeoutMs} ms` },
      }));
    },
    async close() {
      loaded.clear();
    },
  };
}

// As over the isolate bridge: a checkpoint after its call was answered is refused, not saved.
function untilEnded(call: RuntimeCall, ended: WeakSet<RuntimeCall>): Capabilities {
  const { capabilities } = call;
  return {
    fetch: (request) => capabilities.fetch(request),
    storage: capabilities.storage,
    secrets: capabilities.secrets,
    log: (entry) => capabilities.log(entry),
    checkpoint: () =>
      ended.has(call)
        ? Promise.reject(new Error('ctx.checkpoint() refused: the call already ended (its budget ran out)'))
        : capabilities.checkpoint(),
  };
}

// Validation and replies cannot be stopped in process either: past the budget the caller gets an
// error to answer, and the result that comes later is dropped.
async function rejectAfter<T>(run: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
