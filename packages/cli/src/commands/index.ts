import type { Command } from '../cli/defineCommand.js';
import { initCommand } from './init/index.js';
import { testCommand } from './test/index.js';
import { upgradeCommand } from './upgrade/index.js';
import { validateCommand } from './validate/index.js';

/**
 * Every command of `platform`, in help order. The host-facing commands (login, use, sources,
 * publish, status) and dev slot in here as further `defineCommand` values.
 */
export const COMMANDS: readonly Command<any, any>[] = [
  initCommand,
  validateCommand,
  testCommand,
  upgradeCommand,
];
