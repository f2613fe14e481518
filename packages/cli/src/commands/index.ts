import type { Command } from '../cli/defineCommand.js';
import { devCommand } from './dev/command.js';
import { initCommand } from './init/command.js';
import { loginCommand } from './login/command.js';
import { logoutCommand } from './logout/command.js';
import { mcpCommand } from './mcp/command.js';
import { publishCommand } from './publish/command.js';
import { sessionsCommand } from './sessions/command.js';
import { sourcesCommand } from './sources/command.js';
import { statusCommand } from './status/command.js';
import { testCommand } from './test/command.js';
import { upgradeCommand } from './upgrade/command.js';
import { useCommand } from './use/command.js';
import { validateCommand } from './validate/command.js';

/** Every command of `platform`, in help order. */
export const COMMANDS: readonly Command<any, any>[] = [
  initCommand,
  devCommand,
  validateCommand,
  testCommand,
  loginCommand,
  logoutCommand,
  sessionsCommand,
  mcpCommand,
  useCommand,
  sourcesCommand,
  publishCommand,
  statusCommand,
  upgradeCommand,
];
