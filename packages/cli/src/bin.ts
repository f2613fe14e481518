#!/usr/bin/env node
import { ExitError } from './cli/ExitError.js';
import { runMain } from './cli/runMain.js';
import { COMMANDS } from './commands/index.js';

// Partner code that validate imports may log while loading; its output goes to stderr, so that
// stdout carries only the command's own output (one JSON value with --json).
console.log = console.error;
console.info = console.error;
console.debug = console.error;

let exitCode = 0;
try {
  await runMain(
    process.argv.slice(2),
    { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() },
    COMMANDS,
  );
} catch (error) {
  if (error instanceof ExitError) {
    exitCode = error.exitCode;
  } else {
    process.stderr.write(
      `platform: unexpected failure\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    exitCode = 1;
  }
}
// Exit even when loaded partner code left timers or sockets open; output is already flushed.
process.exit(exitCode);
