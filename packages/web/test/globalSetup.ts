import { buildWebApp } from '../build/buildWebApp.js';

/** The host's web app tests load the built app: build it when `dist/app` is missing or stale. */
export default async function setup(): Promise<void> {
  await buildWebApp({ ifStale: true, quiet: true });
}
