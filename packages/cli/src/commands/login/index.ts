export { loginCommand } from './command.js';
export { type DeviceCode, type DeviceGrant, deviceSignIn } from './deviceSignIn.js';
export { type LoginOptions, type LoginReport, loginToHost } from './loginToHost.js';
