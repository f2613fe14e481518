export { sessionsCommand } from './command.js';
