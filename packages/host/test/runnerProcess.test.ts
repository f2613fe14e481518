import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runnerExecArgv } from '../src/runtime/_runnerProcess.js';
import { RUNNER_DIR } from '../src/runtime/buildGuestPrelude.js';

// Defence in depth under the isolates: what a runner process itself may do.
describe('runner process flags', () => {
  it('reads only its own folder, spawns nothing, and has no environment', () => {
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
        env: Object.keys(process.env).length,
      }));`;
    const result = spawnSync(process.execPath, [...runnerExecArgv(), '-e', probe], {
      env: {},
      encoding: 'utf8',
    });
    expect(JSON.parse(result.stdout)).toEqual({
      runner: 'allowed',
      hostPackage: 'ERR_ACCESS_DENIED',
      etc: 'ERR_ACCESS_DENIED',
      write: 'ERR_ACCESS_DENIED',
      spawn: 'ERR_ACCESS_DENIED',
      env: 0,
    });
  });
});
