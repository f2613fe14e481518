// The end user's dashboard in a real Chromium: a host with 6 integrations activated in one account
// (bench/fixtures/dashboard, 2 widgets each, 12 in all), opened signed in with a cold browser cache.
// Measured: the time from navigation to the shell's "Dashboard" heading (the baseline: what the
// page costs before any widget), to the first and to the last widget rendered (each widget stamps
// the wall-clock time its frame painted it; frames have their own documents, so the page cannot
// observe them), the shell's initial JavaScript gzipped (what index.html loads before anything
// else), all the JavaScript the top page loaded to show the dashboard, each integration's browser
// bundle gzipped (as install stored it), and the page's cumulative layout shift
// (PerformanceObserver 'layout-shift', shifts without recent input).
// Where the widget time goes: each widget is a frame of its own with an opaque origin, so each of
// the 12 fetches and evaluates the shared runtime (react-dom's client, react-query, the UI kit,
// the bootstrap: about 17 modules) and its integration's bundle by itself, about 200 requests.
import { gzipSync } from 'node:zlib';
import { installProject } from '@platform/host';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../packages/cli/test/_chromium.js';
import { startTestHost, type TestHost } from '../packages/host/test/_host.js';
import { serveOnLoopback } from '../packages/host/test/_nodeServer.js';

const FIXTURE = new URL('./fixtures/dashboard/', import.meta.url).pathname;
const WIDGETS = 12;
const GOALS = { firstMs: 1000, lastMs: 2000, shellBytes: 150 * 1024 };

interface Sample {
  readonly shellMs: number;
  readonly firstMs: number;
  readonly lastMs: number;
  readonly cls: number;
  /** gzip bytes of every script the top page loaded (its frames' not counted). */
  readonly pageScriptBytes: number;
}

async function seededHost(): Promise<TestHost> {
  const host = await startTestHost({ projects: [] });
  const { versions } = await installProject({
    db: host.db,
    runtime: host.services.runtime,
    projectDir: FIXTURE,
  });
  // Tenancy: a version is live for an account only on a source that serves it.
  await host.db.query(
    'INSERT INTO source_accounts (source_id, account_id) SELECT DISTINCT source_id, $1 FROM integrations ON CONFLICT DO NOTHING',
    [host.accountId],
  );
  // Activated by the account's owner through the activation route, as the listing page does.
  for (const version of versions) {
    const answer = await host.call(
      `/api/integrations/${version.slug}/activation?accountId=${host.accountId}`,
      {
        json: {},
      },
    );
    if (!answer.ok) throw new Error(`activating ${version.slug}: ${answer.status} ${await answer.text()}`);
  }
  return host;
}

const gzipped = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).byteLength;

/** The shell's initial JavaScript: the scripts and module preloads index.html names, gzipped. */
async function shellScripts(origin: string): Promise<{ path: string; gzip: number; raw: number }[]> {
  const html = await (await fetch(`${origin}/sign-in`)).text();
  const paths = [
    ...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((match) => match[1]!);
  return Promise.all(
    [...new Set(paths)].map(async (path) => {
      const body = new Uint8Array(await (await fetch(new URL(path, origin))).arrayBuffer());
      return { path, gzip: gzipped(body), raw: body.byteLength };
    }),
  );
}

async function sample(browser: Browser, origin: string, storageState: any): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, storageState });
  try {
    const page = await context.newPage();
    await page.addInitScript(() => {
      const state = globalThis as unknown as { __cls: number };
      state.__cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
          if (!entry.hadRecentInput) state.__cls += entry.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const scripts: Promise<number>[] = [];
    page.on('response', (response) => {
      if (response.frame() === page.mainFrame() && response.request().resourceType() === 'script')
        scripts.push(response.body().then(gzipped, () => 0));
    });
    await page.goto(`${origin}/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 60_000 });
    const shellAt = await page.evaluate(() => performance.timeOrigin + performance.now());
    const deadline = Date.now() + 60_000;
    let stamps: number[] = [];
    while (stamps.length < WIDGETS) {
      if (Date.now() > deadline)
        throw new Error(`only ${stamps.length} of ${WIDGETS} widgets rendered in 60 s`);
      await page.waitForTimeout(20);
      const found = await Promise.all(
        page
          .frames()
          .filter((frame) => frame !== page.mainFrame())
          .map((frame) =>
            frame
              .evaluate(() => document.querySelector('[data-rendered-at]')?.getAttribute('data-rendered-at'))
              .catch(() => undefined),
          ),
      );
      stamps = found.filter((stamp): stamp is string => typeof stamp === 'string').map(Number);
    }
    // Layout shift is read once the grid has settled after the last widget.
    await page.waitForTimeout(500);
    const { start, cls } = await page.evaluate(() => ({
      start: performance.timeOrigin,
      cls: (globalThis as unknown as { __cls: number }).__cls,
    }));
    return {
      shellMs: shellAt - start,
      firstMs: Math.min(...stamps) - start,
      lastMs: Math.max(...stamps) - start,
      cls,
      pageScriptBytes: (await Promise.all(scripts)).reduce((sum, bytes) => sum + bytes, 0),
    };
  } finally {
    await context.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');

export async function benchDashboard(rounds = 7): Promise<void> {
  const host = await seededHost();
  const server = await serveOnLoopback(host.app.fetch);
  const browser = await launchChromium();
  try {
    // Signed in once; every round is a new browser profile with that session and an empty cache.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.origin}/sign-in`);
    await page.getByLabel('Email').fill(host.email);
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: 60_000 });
    const storageState = await context.storageState();
    await context.close();

    const samples: Sample[] = [];
    // Round 0 warms the host (bundles read, statements prepared) and is not counted.
    for (let round = 0; round <= rounds; round++) {
      const measured = await sample(browser, server.origin, storageState);
      if (round > 0) samples.push(measured);
    }
    const shell = await shellScripts(server.origin);
    const bundles = await host.db.query(
      'SELECT integration_slug, browser_bundle_gzip_bytes FROM versions ORDER BY integration_slug',
    );

    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const ms = (value: number) => `${value.toFixed(0)} ms`.padStart(9);
    console.log(
      `\nThe dashboard in Chromium: 12 widgets from 6 integrations, 1400x900, signed in, cold cache (${rounds} rounds after one warm-up)`,
    );
    console.log(
      `  ${'measure'.padEnd(50)} ${'median'.padStart(9)} ${'min'.padStart(9)} ${'max'.padStart(9)} ${'goal'.padStart(9)}  verdict`,
    );
    const row = (label: string, values: number[], goal?: number) =>
      console.log(
        `  ${label.padEnd(50)} ${ms(median(values))} ${ms(Math.min(...values))} ${ms(Math.max(...values))} ${(goal === undefined ? '' : `${goal} ms`).padStart(9)}  ${goal === undefined ? 'baseline' : verdict(median(values) <= goal)}`,
      );
    row(
      'navigation to the shell (Dashboard heading)',
      samples.map((s) => s.shellMs),
    );
    row(
      'navigation to the first widget rendered',
      samples.map((s) => s.firstMs),
      GOALS.firstMs,
    );
    row(
      `navigation to the last (${WIDGETS}th) widget rendered`,
      samples.map((s) => s.lastMs),
      GOALS.lastMs,
    );
    const cls = samples.map((s) => s.cls);
    console.log(
      `  ${'cumulative layout shift (top page)'.padEnd(50)} ${median(cls).toFixed(3).padStart(9)} ${Math.min(
        ...cls,
      )
        .toFixed(3)
        .padStart(9)} ${Math.max(...cls)
        .toFixed(3)
        .padStart(9)} ${'0.1'.padStart(9)}  ${verdict(median(cls) <= 0.1)}`,
    );
    const shellBytes = shell.reduce((sum, file) => sum + file.gzip, 0);
    console.log(
      `  host shell's initial JavaScript, gzipped: ${kb(shellBytes)} (${shell.map((file) => `${file.path} ${kb(file.gzip)} of ${kb(file.raw)}`).join(', ')}); goal <= ${kb(GOALS.shellBytes)}: ${verdict(shellBytes <= GOALS.shellBytes)}`,
    );
    console.log(
      `  all JavaScript the top page loaded for the dashboard, gzipped: ${kb(median(samples.map((s) => s.pageScriptBytes)))}`,
    );
    console.log('  integration browser bundles, gzipped (validate warns over 64 KB, refuses over 128 KB):');
    for (const bundle of bundles.rows as {
      integration_slug: string;
      browser_bundle_gzip_bytes: number | null;
    }[])
      console.log(
        `    ${bundle.integration_slug.padEnd(24)} ${bundle.browser_bundle_gzip_bytes === null ? 'none' : kb(bundle.browser_bundle_gzip_bytes)}`,
      );
  } finally {
    await browser.close();
    await server.close();
    await host.close();
  }
}
