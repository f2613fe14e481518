import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isolatedVmLineFor, resolveIsolatedVm } from '../src/runtime/isolatedVm.js';

describe('isolated-vm line per Node version', () => {
  it('maps Node 20 to 5.0.4, 22 to 6.x, 24 and later to 7.x', () => {
    expect(isolatedVmLineFor('20.20.2')).toMatchObject({ packageName: 'isolated-vm', version: '5.0.4' });
    expect(isolatedVmLineFor('v21.7.3').packageName).toBe('isolated-vm');
    expect(isolatedVmLineFor('22.23.3')).toMatchObject({
      packageName: 'isolated-vm-node22',
      version: '6.2.0',
    });
    expect(isolatedVmLineFor('23.11.0').packageName).toBe('isolated-vm-node22');
    expect(isolatedVmLineFor('24.9.0')).toMatchObject({
      packageName: 'isolated-vm-node24',
      version: '7.0.1',
    });
    expect(isolatedVmLineFor('26.0.0').packageName).toBe('isolated-vm-node24');
  });

  it('refuses Node before 20 with the fix', () => {
    expect(() => isolatedVmLineFor('18.20.4')).toThrow(
      /needs Node 20 or later .*PLATFORM_RUNTIME=in-process/,
    );
  });

  it('resolves the line of this Node, and the runner can load it with only those folders readable', () => {
    const resolved = resolveIsolatedVm();
    expect(resolved).toMatchObject(isolatedVmLineFor(process.versions.node));
    const permission = process.allowedNodeEnvironmentFlags.has('--permission')
      ? '--permission'
      : '--experimental-permission';
    const probe = `const ivm = require(${JSON.stringify(resolved.main)}); const i = new ivm.Isolate({ memoryLimit: 16 }); process.stdout.write(String(i.compileScriptSync('6 * 7').runSync(i.createContextSync())));`;
    const result = spawnSync(
      process.execPath,
      [
        '--no-node-snapshot',
        permission,
        ...resolved.readDirs.map((dir) => `--allow-fs-read=${dir}/*`),
        '--allow-fs-read=/etc/alpine-release',
        '--allow-addons',
        '--no-warnings',
        '-e',
        probe,
      ],
      { encoding: 'utf8', env: {} },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('42');
  });

  it('says which package is missing and how to fix it', () => {
    const notInstalled = (request: string): string => {
      throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => resolveIsolatedVm('22.23.3', notInstalled)).toThrow(
      /isolated-vm 6\.2\.0 on Node 22\.23\.3 \(npm package "isolated-vm-node22".*\).*is not installed: run npm install again with this Node/,
    );
  });
});
