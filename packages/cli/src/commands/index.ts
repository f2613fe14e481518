import type { Command } from '../cli/defineCommand.js';
import { devCommand } from './dev/command.js';
import { initCommand } from './init/command.js';
import { testCommand } from './test/command.js';
import { upgradeCommand } from './upgrade/command.js';
import { validateCommand } from './validate/command.js';

/**
 * Every command of `platform`, in help order. The host-facing commands (login, use, sources,
 * publish, status) slot in here as further `defineCommand` values.
 */
export const COMMANDS: readonly Command<any, any>[] = [
  initCommand,
  devCommand,
  validateCommand,
  testCommand,
  upgradeCommand,
];
