import { buildCli } from '../../../scripts/build-cli.js';

/** The CLI's tests drive the built binary: build it (and what it loads) when `dist` is missing or stale. */
export default function setup(): void {
  buildCli();
}
