// `npm run bench`: every benchmark, each printed with ratios against a baseline measured in the same run.
import { benchActionsRoute } from './actionsRoute.bench.js';
import { benchDashboard } from './dashboard.bench.js';
import { benchDbStatement } from './dbStatement.bench.js';
import { benchDefinition } from './definition.bench.js';
import { benchDev } from './dev.bench.js';
import { benchInvokeAction } from './invokeAction.bench.js';
import { benchIsolatedRuntime } from './isolatedRuntime.bench.js';
import { benchMcpTools } from './mcpTools.bench.js';
import { benchPublish } from './publish.bench.js';
import { benchScheduler } from './scheduler.bench.js';
import { benchStorageCommit } from './storageCommit.bench.js';
import { benchUiSize } from './uiSize.bench.js';
import { benchValidate } from './validate.bench.js';
import { benchWebhookIngest } from './webhookIngest.bench.js';

// `npm run bench` measures the packages as built (`tsc -b`, each package's `dist/`): what an installed
// `platform-host` or `platform` runs. `npm run bench:source` measures the sources through tsx, as
// `npm start` and the bins run them in this checkout (tsx keeps function names, a call per closure made).
const measured = import.meta.resolve('@platform/host').includes('/dist/')
  ? 'the packages as built (dist/, as installed)'
  : 'the sources through tsx (npm run bench:source)';
console.log(
  `Platform benchmarks: node ${process.version}, ${process.platform}/${process.arch}; measuring ${measured}`,
);
// `npm run bench -- isolated route` runs only the benchmarks whose names contain one of the words.
const benches: Record<string, () => Promise<void>> = {
  definition: benchDefinition,
  invokeAction: benchInvokeAction,
  actionsRoute: benchActionsRoute,
  mcpTools: benchMcpTools,
  webhookIngest: benchWebhookIngest,
  isolatedRuntime: benchIsolatedRuntime,
  uiSize: benchUiSize,
  validate: benchValidate,
  dev: benchDev,
  dashboard: benchDashboard,
  publish: benchPublish,
  storageCommit: benchStorageCommit,
  dbStatement: benchDbStatement,
  scheduler: benchScheduler,
};
const filters = process.argv.slice(2).map((word) => word.toLowerCase());
for (const [name, run] of Object.entries(benches)) {
  if (filters.length === 0 || filters.some((word) => name.toLowerCase().includes(word))) await run();
}
