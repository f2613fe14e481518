// A runner process: runs partner code in V8 isolates (isolated-vm) for the host process, which
// forks it with `--no-node-snapshot`, the permission model (file reads limited to this folder and
// isolated-vm) and an empty environment. Messages over the IPC channel, JSON only:
//   host -> runner: init { prelude, definitionCheckedGlobal, memoryLimitMb, maxIsolates, idleMs,
//                   leftoverCpuMs, threadSliceMs }, call { callId, versionId, script?, request, cpuLimitMs,
//                   ephemeral? }, cap-result { capId, reply }, abandon { callId }, stats { statsId }
//   runner -> host: ready, cap { callId, versionId, capId, method, args, logs?, used? }, log { callId, entries },
//                   result { callId, ok, value | error: { kind, message }, logs?, used? }, evicted { versionId },
//                   stats { statsId, isolates, versions, callsOnThread, callsOnPool, pooledVersions,
//                           pooledFor { stoppedTwice, mean, diverged }, stopsForgiven,
//                           continuationsOnThread, reruns { replayed, diverged }, messagesIn, deliveriesIn },
//                   security { kind, versionId, message },
//                   leftover { versionId, cpuMs }
// `used` (JSON text): the storage values the host read ahead for a call (`preload` in its request)
// that the guest used since its previous message; the prelude prefixes a result with "\0used\0".
// A call without `script` for a version this runner has evicted answers `missing_code`; the host
// sends it again with the script. `logs`/`entries`: a call's console lines (JSON text) not sent yet,
// handled by the host before the message they ride on. A call's start is not a message: the
// prelude marks it in shared memory (start flags, below). A call enters its isolate on this
// thread when it can (see RUN_NOW_TIMEOUT_MS), else through isolated-vm's thread pool; so does the
// code after a capability answer, under a transcript that lets a stopped call run again
// (TRANSCRIPT_ENTRIES).
//
// Nothing that comes out of an isolate is trusted. The guest names the call a request belongs to
// (several calls of one version share its isolate), so a request is answered only when that call
// is running in the very isolate that asks; call ids are random. Any other id is refused and
// reported as a security event; a request of a call of this isolate that has ended is dropped
// unanswered, so work a handler left behind stalls instead of running on.
// The entry the host forks (compiled to runner.mjs, or bundled to one when the host runs from source).

import { beginner, logger, poster, subtle } from './_capabilityBridge.js';
import { evictIdle, installBridge } from './_isolatePool.js';
import { capReplies, send } from './_outbox.js';
import { abandon, runCall } from './_runCall.js';
import { counters, pooledVersions, ready, settings, versions } from './_state.js';
import { scheduleWatchdog } from './_watchdog.js';

// The pool hands each isolate the capability bridge's callbacks.
installBridge({ poster, logger, subtle, beginner });
scheduleWatchdog();

process.on('message', (message: any) => {
  counters.deliveriesIn++;
  if (message.type !== 'batch') receive(message);
  else for (const each of message.messages) receive(each);
});

function receive(message: any): void {
  counters.messagesIn++;
  switch (message.type) {
    case 'init':
      settings.preludeText = message.prelude;
      settings.definitionCheckedGlobal = message.definitionCheckedGlobal;
      settings.memoryLimitMb = message.memoryLimitMb;
      settings.maxIsolates = message.maxIsolates;
      settings.idleMs = message.idleMs;
      settings.leftoverCpuNs = BigInt(Math.round(message.leftoverCpuMs * 1e6));
      settings.RUN_NOW_TIMEOUT_MS = message.threadSliceMs;
      settings.RUN_NOW_TIMEOUT_NS = BigInt(Math.round(message.threadSliceMs * 1e6));
      settings.RUN_NOW_MEAN_NS = Math.round(message.threadSliceMs * 1e5);
      setInterval(evictIdle, Math.max(10, Math.min(settings.idleMs / 4, 30_000))).unref();
      send({ type: 'ready' });
      break;
    case 'call':
      runCall(message);
      break;
    case 'cap-result': {
      const resolve = capReplies.get(message.capId);
      capReplies.delete(message.capId);
      resolve?.(message.reply);
      break;
    }
    case 'abandon':
      abandon(message.callId);
      break;
    case 'stats':
      send({
        type: 'stats',
        statsId: message.statsId,
        isolates: ready.size,
        versions: versions.size,
        callsOnThread: counters.callsOnThread,
        callsOnPool: counters.callsOnPool,
        pooledVersions: pooledVersions.size,
        pooledFor: counters.pooledFor,
        stopsForgiven: counters.stopsForgiven,
        continuationsOnThread: counters.continuationsOnThread,
        reruns: counters.reruns,
        messagesIn: counters.messagesIn,
        deliveriesIn: counters.deliveriesIn,
      });
      break;
  }
}
process.on('disconnect', () => process.exit(0));
