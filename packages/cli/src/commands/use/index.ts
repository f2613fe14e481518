export { useCommand } from './command.js';
export { selectSource, type UseOptions, type UseReport } from './selectSource.js';
