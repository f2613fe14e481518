export { DEFAULT_DEV_HOST, DEFAULT_DEV_PORT, devCommand } from './command.js';
export { SHELL_CONTRACT } from './shellContract.js';
export type { DevOptions, DevReport } from './startDevServer.js';
export { SHELL_DIR } from './writeShell.js';
