import { describe, expect, it } from 'vitest';
import { planUpgrade } from './planUpgrade.js';

describe('planUpgrade', () => {
  it('holds use-intl through pnpm.overrides for a pnpm project, keeping its other pnpm settings', () => {
    const plan = planUpgrade(
      { dependencies: { '@platform/ui': '~0.3.2' }, pnpm: { onlyBuiltDependencies: ['esbuild'] } },
      'pnpm',
    );
    expect(plan.changes).toEqual([
      { name: '@platform/ui', section: 'dependencies', from: '~0.3.2', to: '^0.5.0' },
      { name: 'next-intl', section: 'dependencies', from: null, to: '4.14.8' },
      { name: 'use-intl', section: 'pnpm.overrides', from: null, to: '4.14.8' },
    ]);
    expect(plan.upgraded.pnpm).toEqual({
      onlyBuiltDependencies: ['esbuild'],
      overrides: { 'use-intl': '4.14.8' },
    });
    expect(plan.upgraded.overrides).toBeUndefined();
  });

  it('keeps an override the project already has, and touches nothing outside @platform/*', () => {
    const input = {
      dependencies: { '@platform/sdk': '^0.2.1', zod: '^3.25.76' },
      overrides: { 'use-intl': '4.14.7' },
    };
    const plan = planUpgrade(input, 'npm');
    expect(plan.upgraded).toEqual({
      dependencies: { '@platform/sdk': '^0.5.0', zod: '^3.25.76', 'next-intl': '4.14.8' },
      overrides: { 'use-intl': '4.14.7' },
    });
    expect(input.dependencies['@platform/sdk']).toBe('^0.2.1');
  });

  it('moves a project as CLI 0.3.3 scaffolded it (0.4 train) to 0.5, keeping its next-intl and overrides', () => {
    const input = {
      dependencies: { '@platform/sdk': '^0.4.0', '@platform/ui': '^0.4.0', 'next-intl': '4.14.8' },
      devDependencies: { '@platform/cli': '^0.3.3', '@platform/harness': '^0.4.0' },
      overrides: { 'use-intl': '4.14.8' },
    };
    const plan = planUpgrade(input, 'npm');
    expect(plan.changes).toEqual([
      { name: '@platform/sdk', section: 'dependencies', from: '^0.4.0', to: '^0.5.0' },
      { name: '@platform/ui', section: 'dependencies', from: '^0.4.0', to: '^0.5.0' },
      { name: '@platform/cli', section: 'devDependencies', from: '^0.3.3', to: '^0.4.0' },
      { name: '@platform/harness', section: 'devDependencies', from: '^0.4.0', to: '^0.5.0' },
    ]);
    expect(plan.ahead).toEqual([]);
    expect(plan.upgraded).toEqual({
      dependencies: { '@platform/sdk': '^0.5.0', '@platform/ui': '^0.5.0', 'next-intl': '4.14.8' },
      devDependencies: { '@platform/cli': '^0.4.0', '@platform/harness': '^0.5.0' },
      overrides: { 'use-intl': '4.14.8' },
    });
  });

  it('lists a package on the next train as ahead, and moves nothing down', () => {
    const plan = planUpgrade({ dependencies: { '@platform/sdk': '^0.6.0', '@platform/ui': '0.5.3' } }, 'npm');
    expect(plan.ahead).toEqual([{ name: '@platform/sdk', range: '^0.6.0' }]);
    expect(plan.changes.filter((change) => change.name.startsWith('@platform/'))).toEqual([]);
  });

  it('adds nothing to a project that uses neither the sdk nor the ui', () => {
    expect(planUpgrade({ devDependencies: { '@platform/cli': '^0.3.0' } }, 'npm').changes).toEqual([
      { name: '@platform/cli', section: 'devDependencies', from: '^0.3.0', to: '^0.4.0' },
    ]);
  });
});
