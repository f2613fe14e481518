import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RUNNER_DIR } from '../src/runtime/_runnerEntry.js';
import { RUNNER_ENV, runnerExecArgv } from '../src/runtime/_runnerFlags.js';
import { startRunnerProcess } from '../src/runtime/_runnerProcess.js';

// Defence in depth under the isolates: what a runner process itself may do.
describe('runner process flags', () => {
  it("reads only its own folder, spawns nothing, and has none of the host's environment", () => {
    const hostPackageJson = fileURLToPath(new URL('../package.json', import.meta.url));
    const probe = `
      const fs = require('node:fs');
      const tryIt = (fn) => { try { fn(); return 'allowed'; } catch (e) { return e.code ?? e.name; } };
      console.log(JSON.stringify({
        runner: tryIt(() => fs.readFileSync(${JSON.stringify(`${RUNNER_DIR}runner.mjs`)})),
        hostPackage: tryIt(() => fs.readFileSync(${JSON.stringify(hostPackageJson)})),
        etc: tryIt(() => fs.readFileSync('/etc/hostname')),
        write: tryIt(() => fs.writeFileSync(${JSON.stringify(`${RUNNER_DIR}x`)}, 'x')),
        spawn: tryIt(() => require('node:child_process').spawnSync('true')),
        env: Object.keys(process.env),
      }));`;
    const result = spawnSync(process.execPath, [...runnerExecArgv(), '-e', probe], {
      env: { ...RUNNER_ENV },
      encoding: 'utf8',
    });
    expect(JSON.parse(result.stdout)).toEqual({
      runner: 'allowed',
      hostPackage: 'ERR_ACCESS_DENIED',
      etc: 'ERR_ACCESS_DENIED',
      write: 'ERR_ACCESS_DENIED',
      spawn: 'ERR_ACCESS_DENIED',
      env: ['MALLOC_ARENA_MAX'],
    });
  });

  it("is forked with that environment and nothing of the host's", async (context) => {
    if (!existsSync('/proc/self/environ')) {
      console.log('skipped: no /proc here to read a process environment from');
      context.skip();
    }
    process.env.PLATFORM_TEST_HOST_ONLY = 'host secret';
    const runner = startRunnerProcess({
      prelude: '',
      memoryLimitMb: 128,
      onExit: () => {},
      onStderr: () => {},
    });
    try {
      const environ = readFileSync(`/proc/${runner.pid}/environ`, 'utf8').split('\0').filter(Boolean);
      // Node adds its IPC channel's descriptor and serialization to a forked child's environment.
      expect(environ.filter((entry) => !entry.startsWith('NODE_CHANNEL_'))).toEqual(
        Object.entries(RUNNER_ENV).map(([name, value]) => `${name}=${value}`),
      );
      expect(environ.length).toBe(Object.keys(RUNNER_ENV).length + 2);
    } finally {
      delete process.env.PLATFORM_TEST_HOST_ONLY;
      await runner.stop();
    }
  });
});
