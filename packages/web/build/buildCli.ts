// `npm run build -w @platform/web` (and the root build): the web app into dist/app.
// `--if-stale` skips the build when dist/app is newer than every file it is built from.
import { buildWebApp } from './buildWebApp.js';

const built = await buildWebApp({ ifStale: process.argv.includes('--if-stale') });
if (!built) process.stdout.write('web app: dist/app is current\n');
