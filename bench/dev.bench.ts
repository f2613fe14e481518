// `platform dev` in a real browser: cold start to the first hydrated widget, and a widget file save
// to the updated widget on screen, against a plain Vite React app rendering the same widget file,
// started the same way in the same run.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Page } from 'playwright-core';
import { freePort, launchChromium } from '../packages/cli/test/_chromium.js';
import { buildCli } from '../scripts/build-cli.js';

const root = join(import.meta.dirname, '..');
const cli = join(root, 'packages', 'cli', 'dist', 'bin.js');
const fixture = join(root, 'packages', 'cli', 'test', 'fixtures', 'dev-project');
const widgetFile = join('src', 'dev-notes', 'NotesWidget.tsx');

function project(kind: 'platform' | 'vite'): string {
  const dir = mkdtempSync(join(tmpdir(), `platform-bench-dev-${kind}-`));
  cpSync(fixture, dir, { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  if (kind === 'vite') {
    // The baseline: the same widget file, mounted by a hand-written Vite React app, its dependency
    // cache in the project as platform dev's is (node_modules is shared between rounds).
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>baseline</title></head><body><div id="root"></div><script type="module" src="/main.tsx"></script></body></html>\n',
    );
    writeFileSync(
      join(dir, 'main.tsx'),
      "import { createRoot } from 'react-dom/client';\nimport { NotesWidget } from './src/dev-notes/NotesWidget';\ncreateRoot(document.getElementById('root')!).render(<NotesWidget />);\n",
    );
    writeFileSync(
      join(dir, 'vite.config.mjs'),
      "import react from '@vitejs/plugin-react';\nexport default { plugins: [react()], cacheDir: '.vite-cache' };\n",
    );
  }
  return dir;
}

/** Starts the server and resolves with its URL when it prints that it listens. */
async function start(kind: 'platform' | 'vite', dir: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const args =
    kind === 'platform'
      ? [cli, 'dev', '--port', String(port)]
      : [
          join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
          '--port',
          String(port),
          '--strictPort',
          '--host',
          '127.0.0.1',
        ];
  const child = spawn(process.execPath, args, {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const url =
    kind === 'platform'
      ? `http://127.0.0.1:${port}/dev-notes/widgets/dev-notes-board`
      : `http://127.0.0.1:${port}/`;
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`${kind} did not listen within 120 s:\n${output}`)),
      120_000,
    );
    const onData = (chunk: Buffer) => {
      // Colours may split the URL: look at the plain text.
      output += stripVTControlCharacters(chunk.toString('utf8'));
      if (output.includes(`:${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${kind} exited ${code} before listening:\n${output}`)));
  });
  return { child, url };
}

async function stopTree(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

interface Sample {
  readonly coldMs: number;
  readonly hmrMs: number;
  /** A second start on the same project: the dependency cache kept, as on a partner's second day. */
  readonly warmMs: number;
}

async function sample(kind: 'platform' | 'vite', page: Page, round: number): Promise<Sample> {
  const dir = project(kind);
  const started = performance.now();
  const server = await start(kind, dir);
  try {
    await page.goto(server.url);
    await page.getByText('Notes', { exact: true }).first().waitFor({ timeout: 120_000 });
    const coldMs = performance.now() - started;
    const file = join(dir, widgetFile);
    const edited = `Edited ${round}`;
    const saved = performance.now();
    writeFileSync(file, readFileSync(file, 'utf8').replace('<p>Notes</p>', `<p>${edited}</p>`));
    await page.getByText(edited, { exact: true }).first().waitFor({ timeout: 60_000 });
    const hmrMs = performance.now() - saved;
    await stopTree(server.child);
    const restarted = performance.now();
    const again = await start(kind, dir);
    try {
      await page.goto(again.url);
      await page.getByText(edited, { exact: true }).first().waitFor({ timeout: 120_000 });
      return { coldMs, hmrMs, warmMs: performance.now() - restarted };
    } finally {
      await stopTree(again.child);
    }
  } finally {
    await stopTree(server.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchDev(rounds = 5): Promise<void> {
  buildCli();
  const browser = await launchChromium();
  const results: Record<'platform' | 'vite', Sample[]> = { platform: [], vite: [] };
  try {
    // Alternating rounds, one fresh page each, so both sides see the same machine state.
    for (let round = 0; round <= rounds; round++) {
      for (const kind of ['vite', 'platform'] as const) {
        const page = await browser.newPage();
        const measured = await sample(kind, page, round);
        await page.close();
        if (round > 0) results[kind].push(measured); // round 0 warms the file system cache
      }
    }
  } finally {
    await browser.close();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `\nplatform dev in Chromium (${rounds} rounds each, after one warm-up; baseline: a plain Vite React app with the same widget)`,
  );
  console.log(
    `  ${'task'.padEnd(56)} ${'median'.padStart(9)} ${'min'.padStart(9)} ${'max'.padStart(9)} ${'x baseline'.padStart(11)}`,
  );
  for (const [metric, label] of [
    ['coldMs', 'cold start to first hydrated widget'],
    ['hmrMs', 'widget file save to updated widget on screen'],
    ['warmMs', 'restart (dependency cache kept) to widget'],
  ] as const) {
    const base = median(results.vite.map((s) => s[metric]));
    for (const kind of ['vite', 'platform'] as const) {
      const values = results[kind].map((s) => s[metric]);
      const ms = (value: number) => `${value.toFixed(0)} ms`.padStart(9);
      const name = `${kind === 'vite' ? 'plain Vite app' : 'platform dev'}: ${label}`;
      console.log(
        `  ${name.padEnd(56)} ${ms(median(values))} ${ms(Math.min(...values))} ${ms(Math.max(...values))} ${(median(values) / base).toFixed(2).padStart(10)}x`,
      );
    }
  }
}
