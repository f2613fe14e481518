// `npm run bench`: every benchmark, each printed with ratios against a baseline measured in the same run.
import { benchActionsRoute } from './actionsRoute.bench.js';
import { benchDefinition } from './definition.bench.js';
import { benchInvokeAction } from './invokeAction.bench.js';
import { benchIsolatedRuntime } from './isolatedRuntime.bench.js';
import { benchUiSize } from './uiSize.bench.js';
import { benchValidate } from './validate.bench.js';
import { benchWebhookIngest } from './webhookIngest.bench.js';

console.log(`Platform benchmarks: node ${process.version}, ${process.platform}/${process.arch}`);
await benchDefinition();
await benchInvokeAction();
await benchActionsRoute();
await benchWebhookIngest();
await benchIsolatedRuntime();
await benchUiSize();
await benchValidate();
