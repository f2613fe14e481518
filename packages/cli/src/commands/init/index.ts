export { initCommand } from './command.js';
export { DEFAULT_HOST } from './defaultHost.js';
export { type InitOptions, type InitReport, initProject, registryUrl } from './initProject.js';
export { displayName, SCAFFOLD_VERSIONS, type ScaffoldOptions, scaffoldFiles } from './scaffoldFiles.js';
