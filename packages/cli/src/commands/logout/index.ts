export { logoutCommand } from './command.js';
