import { availableParallelism } from 'node:os';
import {
  ACTION_FAILED_MESSAGE,
  type ActionEnvelope,
  type ActivateResult,
  type GuestCall,
  type PreloadedValue,
  readManifest,
  readToolEnvelope,
  type StorageRef,
  type WebhookReplyResult,
} from '@platform/sdk/runtime';
import { createGroupCommit, type GroupCommit } from '../db/groupCommit.js';
import {
  answersOf,
  handlerOf,
  PAYLOAD_BATCH_BYTES,
  PAYLOAD_CHECKS_PER_BATCH,
  type PayloadCheck,
  type PayloadChecksCall,
} from './_payloadChecks.js';
import { startRunnerProcess } from './_runnerProcess.js';
import type { RunnerOutcome, RunnerProcess, RunnerReport, RunnerStats } from './_runnerProtocol.js';
import { buildGuestPrelude } from './buildGuestPrelude.js';
import type { IsolatedRuntime, IsolatedRuntimeOptions } from './IsolatedRuntimeOptions.js';
import { resolveIsolatedVm } from './isolatedVm.js';
import type { RuntimeCall, RuntimeVersion, WebhookPayloadVerdict } from './Runtime.js';
import { toIsolateScript } from './toIsolateScript.js';

/**
 * The production runtime: partner code runs in V8 isolates (isolated-vm) inside a pool of runner
 * processes; capability calls cross as JSON to this process, where the host capabilities enforce
 * every rule. CPU, memory and wall-clock limits end a call with `handler_error`; a runner that
 * exits is replaced.
 * @example const runtime = createIsolatedRuntime({ runners: 2 }); const host = await createHost({ runtime });
 */
export function createIsolatedRuntime(options: IsolatedRuntimeOptions = {}): IsolatedRuntime {
  // Fails now, with how to fix it, when the isolated-vm line of this Node is not installed.
  const isolatedVm = resolveIsolatedVm();
  const size = Math.max(1, options.runners ?? availableParallelism() - 1);
  const memoryLimitMb = options.memoryLimitMb ?? 128;
  // Isolate scripts by version, most recently used last; runners ask for one only on first use.
  const scripts = new Map<string, Promise<string>>();
  const SCRIPTS_KEPT = 64;
  // Versions that have run a handler here; describing any other one loads it for that call only.
  const loadedVersions = new Set<string>();
  // Integration and number by version id, for reports (bounded like the scripts).
  const labels = new Map<string, { slug: string | undefined; number: number | undefined }>();
  const report = (runnerReport: RunnerReport) => {
    const label = labels.get(runnerReport.versionId);
    options.onReport?.({ ...runnerReport, integration: label?.slug, version: label?.number });
  };
  const pool: (RunnerProcess | undefined)[] = new Array(size).fill(undefined);
  let closed = false;
  let prelude: string | undefined;
  let next = 0;

  function spawn(slot: number, prelude: string): RunnerProcess {
    const warn = (message: string) => options.onWarning?.(`isolated runtime: runner ${slot}: ${message}`);
    const runner = startRunnerProcess({
      prelude,
      memoryLimitMb,
      isolatedVm,
      ...(options.maxIsolatesPerRunner === undefined ? {} : { maxIsolates: options.maxIsolatesPerRunner }),
      ...(options.isolateIdleMs === undefined ? {} : { idleMs: options.isolateIdleMs }),
      ...(options.leftoverCpuMs === undefined ? {} : { leftoverCpuMs: options.leftoverCpuMs }),
      ...(options.threadSliceMs === undefined ? {} : { threadSliceMs: options.threadSliceMs }),
      ...(options.unresponsiveRunnerMs === undefined ? {} : { unresponsiveMs: options.unresponsiveRunnerMs }),
      onWarning: warn,
      onReport: report,
      onStderr: warn,
      onExit: (code, signal) => {
        if (pool[slot] === runner) pool[slot] = undefined;
        if (!closed) {
          options.onWarning?.(
            `isolated runtime: runner ${slot} exited (${signal ?? code}); its calls in flight failed, a new runner starts with the next call`,
          );
        }
      },
    });
    pool[slot] = runner;
    return runner;
  }

  // An idle runner that already holds the version (no cold start); else any idle runner; else a
  // new runner in a free slot; else the least busy, preferring one that holds the version. Runners
  // start only when calls overlap, so a quiet host keeps one process; an exited one frees its slot.
  async function pick(versionId: string): Promise<RunnerProcess> {
    if (closed) throw new Error('the isolated runtime is closed');
    // Built once; awaited only until then, so the scan below and the spawn stay synchronous.
    prelude ??= await buildGuestPrelude();
    const text = prelude;
    let best: RunnerProcess | undefined;
    let bestScore = Number.POSITIVE_INFINITY;
    let free: number | undefined;
    for (let i = 0; i < size; i++) {
      const slot = (next + i) % size;
      const runner = pool[slot];
      if (runner === undefined || runner.exited) {
        free ??= slot;
        continue;
      }
      // Busy-ness first; holding the version breaks ties.
      const score = runner.inFlight * 2 + (runner.has(versionId) ? 0 : 1);
      if (score < bestScore) {
        best = runner;
        bestScore = score;
      }
    }
    next = (next + 1) % size;
    if (best !== undefined && (best.inFlight === 0 || free === undefined)) return best;
    return spawn(free!, text);
  }

  function scriptFor(version: RuntimeVersion): Promise<string> {
    let script = scripts.get(version.id);
    if (script === undefined) {
      script = version.loadBundle().then(toIsolateScript);
      script.catch(() => scripts.delete(version.id));
      if (scripts.size >= SCRIPTS_KEPT) scripts.delete(scripts.keys().next().value!);
    } else {
      scripts.delete(version.id);
    }
    scripts.set(version.id, script);
    return script;
  }

  async function run(
    version: RuntimeVersion,
    // `preload`: storage values read ahead for the handler (the prelude takes them off the request).
    request: (GuestCall & { readonly preload?: readonly PreloadedValue[] }) | PayloadChecksCall,
    capabilities: RuntimeCall['capabilities'],
    timeoutMs: number,
    ephemeral = false,
  ): Promise<RunnerOutcome> {
    const runner = await pick(version.id);
    if (!labels.has(version.id)) {
      if (labels.size >= 1024) labels.delete(labels.keys().next().value!);
      labels.set(version.id, { slug: version.slug, number: version.number });
    }
    const outcome = await runner.call({
      versionId: version.id,
      script: () => scriptFor(version),
      request: JSON.stringify(request),
      capabilities,
      cpuLimitMs: options.cpuLimitMs ?? timeoutMs,
      timeoutMs,
      ephemeral,
    });
    if (ephemeral) scripts.delete(version.id);
    if (!outcome.ok && outcome.error.kind !== 'error') {
      capabilities.log({ level: 'error', message: outcome.error.message });
    }
    return outcome;
  }

  // Storage keys each handler read in its last call (by version, operation and name): read ahead
  // of its next call and sent with it, which spares the isolate a round trip to this process per
  // key. A key the handler no longer reads is dropped after one call; bounded like the scripts.
  const preloads = new Map<string, readonly StorageRef[]>();
  const PRELOADS_KEPT = 4096;
  const PRELOAD_KEYS = 4;

  async function guest<T>(call: RuntimeCall, request: GuestCall, failed: (message: string) => T): Promise<T> {
    loadedVersions.add(call.version.id);
    const storage = call.capabilities.storage;
    const handler = `${call.version.id}\n${handlerOf(request)}`;
    const wanted = preloads.get(handler);
    let preload: PreloadedValue[] | undefined;
    if (wanted !== undefined && storage.preload !== undefined) {
      // A failed read ahead costs nothing but the round trips it would have spared.
      preload = await storage.preload(wanted).catch(() => undefined);
    }
    const outcome = await run(
      call.version,
      preload === undefined || preload.length === 0 ? request : { ...request, preload },
      call.capabilities,
      call.timeoutMs,
    );
    const reads = storage.reads?.();
    if (reads !== undefined) {
      preloads.delete(handler);
      if (reads.length > 0) {
        if (preloads.size >= PRELOADS_KEPT) preloads.delete(preloads.keys().next().value!);
        preloads.set(
          handler,
          reads.slice(0, PRELOAD_KEYS).map(({ scope, key }) => ({ scope, key })),
        );
      }
    }
    if (outcome.ok) return JSON.parse(outcome.value) as T;
    return failed(outcome.error.message);
  }

  // Describing a definition and validating a payload run partner code with nothing to reach.
  const refuse = () => Promise.reject(new Error('no capabilities while describing or validating'));
  const NO_CAPABILITIES: RuntimeCall['capabilities'] = {
    fetch: refuse,
    storage: { get: refuse, set: refuse, delete: refuse },
    secrets: { get: refuse, set: refuse },
    log: () => {},
    checkpoint: refuse,
  };

  // Payload checks by version, batched: the deliveries that arrive while a version's batch is in
  // its isolate go together in the next one (one call and one entry into the isolate for all), so
  // under load they also reach the delivery insert together (`enqueueBatcher`). One batch in flight
  // per version: its isolate runs one thing at a time anyway. A batch that cannot finish (budget,
  // crash) fails the checks in it, all of one version; other versions' batches are not held up.
  const payloadChecks = new Map<
    string,
    { pending: number; group: GroupCommit<PayloadCheck, WebhookPayloadVerdict | Error> }
  >();
  const payloadCheckBatcher = (version: RuntimeVersion) =>
    createGroupCommit<PayloadCheck, WebhookPayloadVerdict | Error>({
      maxInFlight: 1,
      maxRows: PAYLOAD_CHECKS_PER_BATCH,
      maxBytes: PAYLOAD_BATCH_BYTES,
      sizeOf: (check) => check.rawBody.length,
      closedMessage: 'the isolated runtime is closed',
      async writeMany(checks) {
        const outcome = await run(
          version,
          {
            op: 'parseWebhookPayloads',
            items: checks.map(({ webhookId, rawBody, contentType }) => ({
              webhookId,
              rawBody,
              ...(contentType === undefined ? {} : { contentType }),
            })),
          },
          NO_CAPABILITIES,
          Math.max(...checks.map((check) => check.timeoutMs)),
        );
        // As in process: a validation that cannot finish is an error for ingress to answer, not a verdict.
        if (!outcome.ok) throw new Error(outcome.error.message);
        return answersOf(outcome.value, checks.length);
      },
    });

  const handlerError = (message: string) => ({
    ok: false as const,
    error: { code: 'handler_error' as const, message },
  });

  return {
    isolated: true,
    runnerPids() {
      return pool.flatMap((runner) => (runner === undefined || runner.exited ? [] : [runner.pid]));
    },
    async stats() {
      const all = await Promise.all(pool.map((runner) => runner?.stats()));
      return all.filter((stats): stats is RunnerStats => stats !== undefined);
    },
    async describe(version) {
      const outcome = await run(
        version,
        { op: 'describe' },
        NO_CAPABILITIES,
        options.describeTimeoutMs ?? 10_000,
        // Installs describe a bundle under a one-off id; versions already running keep their isolate.
        !loadedVersions.has(version.id),
      );
      if (!outcome.ok) {
        const error = new Error(outcome.error.message);
        if (outcome.error.name !== undefined) error.name = outcome.error.name;
        throw error;
      }
      const value = JSON.parse(outcome.value) as unknown;
      const thrown = (value as { __thrown?: { name?: unknown; message?: unknown } } | null)?.__thrown;
      if (thrown !== undefined) {
        const error = new Error(String(thrown.message));
        error.name = String(thrown.name);
        throw error;
      }
      // Partner code wrote it: checked here, whatever the isolate claims it checked.
      return readManifest(value);
    },
    invokeAction(call) {
      return guest<ActionEnvelope>(
        call,
        { op: 'invokeAction', actor: call.actor, actionName: call.actionName, rawBody: call.rawBody },
        () => handlerError(ACTION_FAILED_MESSAGE),
      );
    },
    async invokeTool(call) {
      const answer = await guest<unknown>(
        call,
        { op: 'invokeTool', actor: call.actor, toolName: call.toolName, args: call.args },
        () => undefined,
      );
      return readToolEnvelope(answer);
    },
    parseWebhookPayload(call) {
      let batcher = payloadChecks.get(call.version.id);
      if (batcher === undefined) {
        batcher = { pending: 0, group: payloadCheckBatcher(call.version) };
        payloadChecks.set(call.version.id, batcher);
      }
      const current = batcher;
      current.pending += 1;
      const settled = () => {
        current.pending -= 1;
        if (current.pending === 0 && payloadChecks.get(call.version.id) === current) {
          payloadChecks.delete(call.version.id);
        }
      };
      return current.group
        .submit(call)
        .finally(settled)
        .then((answer) => {
          if (answer instanceof Error) throw answer;
          return answer;
        });
    },
    async replyToWebhook(call) {
      const outcome = await run(
        call.version,
        { op: 'replyToWebhook', webhookId: call.webhookId, rawBody: call.rawBody, request: call.request },
        NO_CAPABILITIES,
        call.timeoutMs,
      );
      if (!outcome.ok) throw new Error(outcome.error.message);
      return JSON.parse(outcome.value) as WebhookReplyResult;
    },
    deliverWebhook(call) {
      return guest(
        call,
        {
          op: 'deliverWebhook',
          actor: call.actor,
          webhookId: call.webhookId,
          rawBody: call.rawBody,
          ...(call.request === undefined ? {} : { request: call.request }),
        },
        handlerError,
      );
    },
    runSchedule(call) {
      return guest(call, { op: 'runSchedule', actor: call.actor, scheduleId: call.scheduleId }, handlerError);
    },
    runActivate(call) {
      return guest<ActivateResult>(call, { op: 'runActivate', actor: call.actor }, handlerError);
    },
    runOnTokens(call) {
      return guest(call, { op: 'runOnTokens', actor: call.actor, tokens: call.tokens }, (message) => ({
        ok: false as const,
        error: { code: 'save_failed' as const, message },
      }));
    },
    async close() {
      closed = true;
      await Promise.all(pool.map((runner) => runner?.stop()));
      scripts.clear();
    },
  };
}
