export { sourcesCommand } from './command.js';
export { fetchSeats, listSources, type SourcesOptions, type SourcesReport } from './listSources.js';
