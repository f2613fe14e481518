import { existsSync, realpathSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import {
  defaultClientConditions,
  defaultServerConditions,
  type InlineConfig,
  type Plugin,
  searchForWorkspaceRoot,
} from 'vite';
import { findInstalledPackage } from '../../project/packageJson.js';

/** The export condition of this repository's sources (each workspace package's `exports`). */
export const SOURCE_CONDITION = '@platform/source';

/** What the shell's Vite configuration depends on. */
export interface ShellViteOptions {
  readonly projectDir: string;
  readonly shellDir: string;
  /** The project's `@platform/harness` directory, as resolved from the project. */
  readonly harnessDir: string;
  /** The server the pages are served from; Vite's HMR websocket shares it. */
  readonly httpServer: Server;
  /** Resolve workspace packages to their sources (the CLI runs from this repository's checkout). */
  readonly sourceCondition: boolean;
  /** A `--host` name Vite's host check must accept besides loopback and IP addresses. */
  readonly hostName?: string;
  /** More plugins (the load-failure overlay). */
  readonly plugins?: readonly Plugin[];
}

/**
 * Vite in middleware mode for the generated shell: no config file of the project's, React Fast
 * Refresh for widget edits, the project and the folders its packages live in readable, the
 * dependency cache inside the (git-ignored) shell folder.
 */
export function shellViteConfig(options: ShellViteOptions): InlineConfig {
  const conditions = options.sourceCondition ? [SOURCE_CONDITION] : [];
  return {
    root: options.shellDir,
    configFile: false,
    envDir: false,
    appType: 'spa',
    clearScreen: false,
    cacheDir: join(options.shellDir, '.vite'),
    plugins: [react(), ...(options.plugins ?? [])],
    resolve: {
      conditions: [...conditions, ...defaultClientConditions],
      dedupe: ['react', 'react-dom'],
    },
    ssr: {
      resolve: {
        conditions: [...conditions, ...defaultServerConditions],
        externalConditions: conditions,
      },
    },
    optimizeDeps: {
      // Pre-bundled before the first page: a dependency found while the page loads makes Vite
      // reload it, and linked workspace packages would otherwise load module by module.
      include: platformEntries(options.projectDir),
    },
    server: {
      middlewareMode: true,
      hmr: { server: options.httpServer },
      // Many editors save in place: truncate, then write. A change is reported once the file's size
      // has held for 50 ms, so the harness and the pages never load the half-written file (the
      // watcher would drop the write's own event, coming within 50 ms of the truncation's).
      watch: { awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 10 } },
      fs: { allow: readableRoots(options.projectDir, options.harnessDir) },
      ...(options.hostName === undefined ? {} : { allowedHosts: [options.hostName] }),
    },
  };
}

/**
 * The project, its workspace, every `node_modules` above it (and where a linked one really is),
 * and the workspace the harness really lives in (a linked checkout, as in this repository).
 */
function readableRoots(projectDir: string, harnessDir: string): string[] {
  const roots = new Set([projectDir, searchForWorkspaceRoot(projectDir)]);
  for (let dir = projectDir; ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    if (existsSync(modules)) roots.add(modules).add(realpathSync(modules));
    if (dirname(dir) === dir) break;
  }
  const harness = realpathSync(harnessDir);
  roots.add(harness).add(searchForWorkspaceRoot(harness));
  return [...roots];
}

/** The browser-side entry points of the `@platform/*` packages a project has installed. */
const PLATFORM_BROWSER_ENTRIES: Readonly<Record<string, readonly string[]>> = {
  harness: ['', '/hooks', '/registry', '/shell'],
  sdk: ['/integration', '/hooks'],
  ui: ['', '/icons'],
};

/** What the shell and a scaffolded widget import besides `@platform/*`, when the project has it. */
const SHELL_DEPENDENCIES = [
  'react',
  'react-dom/client',
  'react/jsx-dev-runtime',
  '@tanstack/react-query',
  'next-intl',
  'zod',
];

function platformEntries(projectDir: string): string[] {
  // Wherever Node would find it from the project (a workspace may hoist it above).
  const installed = (name: string) => findInstalledPackage(projectDir, name) !== undefined;
  return [
    ...Object.entries(PLATFORM_BROWSER_ENTRIES).flatMap(([name, subpaths]) =>
      installed(`@platform/${name}`) ? subpaths.map((subpath) => `@platform/${name}${subpath}`) : [],
    ),
    ...SHELL_DEPENDENCIES.filter((specifier) => installed(specifier.replace(/\/[^@].*$/, ''))),
  ];
}
