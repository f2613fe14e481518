import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CheckResult, type GateLimits, type GateResult, runGate } from '../../src/gate/index.js';
import { createInProcessRuntime } from '../../src/runtime/createInProcessRuntime.js';
import { packProject } from './_gateProject.js';

let described = 0;

/** `runtime.describe` as the host passes it, from an in-process runtime (the isolate's stand-in here). */
export function describeWith(bundleDir: string) {
  const runtime = createInProcessRuntime({ bundleDir });
  return (bundle: string) =>
    runtime.describe({ id: `gate-test-${++described}`, loadBundle: async () => bundle });
}

/** Packs `projectDir` and runs the gate on it in a fresh work folder, recording every onCheck call. */
export async function gateProject(
  projectDir: string,
  options: { registry: string; describe: ReturnType<typeof describeWith>; limits?: GateLimits },
): Promise<{ result: GateResult; reported: CheckResult[]; workDir: string }> {
  const workDir = await mkdtemp(join(tmpdir(), 'platform-gate-work-'));
  const reported: CheckResult[] = [];
  const result = await runGate({
    archive: await packProject(projectDir),
    workDir,
    platformRegistry: options.registry,
    describe: options.describe,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    onCheck: async (check) => {
      reported.push(check);
    },
  });
  return { result, reported, workDir };
}

/** A server on 127.0.0.1 that counts the connections it is offered (none, when the sandbox holds). */
export async function connectionCounter(): Promise<{
  port: number;
  count(): number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const server: Server = createServer((_, response) => response.end('reached'));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    count: () => connections,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The status of every check, by name. */
export const statuses = (result: GateResult) =>
  Object.fromEntries(result.checks.map((check) => [check.name, check.status]));

/** The log of one check. */
export const logOf = (result: GateResult, name: CheckResult['name']) =>
  result.checks.find((check) => check.name === name)?.log ?? '';
