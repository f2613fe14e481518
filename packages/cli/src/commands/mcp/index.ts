export { mcpCommand } from './command.js';
