export { initCommand } from './command.js';
export { type InitOptions, type InitReport, initProject } from './initProject.js';
export { displayName, SCAFFOLD_VERSIONS, type ScaffoldOptions, scaffoldFiles } from './scaffoldFiles.js';
