import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CheckLog, headAndLog } from './_checkLog.js';
import { childEnv } from './_childEnv.js';
import { lockfileFinding as at, type PlatformPin, pinLockfile, RELOCK_HINT } from './_lockfile.js';
import { runChild, seconds } from './_runChild.js';
import type { Finding } from './GateResult.js';

/**
 * `install`: points `@platform/*` at the host's registry (in .npmrc and in the lockfile's
 * `resolved` URLs, checking the lockfile's integrity against what the registry serves), then
 * `npm ci` with install scripts off. Findings when it fails; none when it passed.
 */
export async function installDependencies(options: {
  projectDir: string;
  workDir: string;
  platformRegistry: string;
  npmRegistry: string;
  timeoutMs: number;
  log: CheckLog;
  signal?: AbortSignal | undefined;
}): Promise<Finding[]> {
  const { projectDir, platformRegistry, npmRegistry, log } = options;
  const { findings, pins } = await pinLockfile(projectDir, { platform: platformRegistry, npm: npmRegistry });
  if (findings.length > 0) return findings;
  const mismatches = await checkIntegrity(pins, platformRegistry, log, options.signal);
  if (mismatches.length > 0) return mismatches;
  await writeFile(
    join(projectDir, '.npmrc'),
    [
      `@platform:registry=${platformRegistry}`,
      `registry=${npmRegistry}`,
      'ignore-scripts=true',
      'audit=false',
      'fund=false',
      'update-notifier=false',
      '',
    ].join('\n'),
  );
  log.line(`.npmrc: @platform:registry=${platformRegistry} registry=${npmRegistry} ignore-scripts=true`);
  const args = ['ci', '--ignore-scripts', '--no-audit', '--no-fund'];
  log.line(`$ npm ${args.join(' ')}`);
  const npmOutput = headAndLog(log);
  const outcome = await runChild({
    command: 'npm',
    args,
    cwd: projectDir,
    env: await childEnv(options.workDir, { install: true }),
    timeoutMs: options.timeoutMs,
    log: npmOutput,
    signal: options.signal,
  });
  if (outcome.code === 0) return [];
  if (outcome.timedOut) {
    return [
      at(
        `npm ci did not finish within ${seconds(options.timeoutMs)}, the gate's limit for install`,
        'install.timeout',
        'Trim the dependencies, or publish again later if a registry was slow.',
      ),
    ];
  }
  return [npmFailure(npmOutput.text(), outcome.spawnError)];
}

// What the host's registry serves for each @platform/* version the lockfile pins.
async function checkIntegrity(
  pinned: readonly PlatformPin[],
  registry: string,
  log: CheckLog,
  signal: AbortSignal | undefined,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const packuments = new Map<
    string,
    Promise<Record<string, { dist?: { integrity?: string } }> | undefined>
  >();
  for (const pin of pinned) {
    let versions = packuments.get(pin.name);
    if (versions === undefined) {
      versions = fetchVersions(pin.name, registry, log, signal);
      packuments.set(pin.name, versions);
    }
    const served = await versions;
    // The registry did not answer: npm ci will say why.
    if (served === undefined) continue;
    const dist = served[pin.version]?.dist;
    if (dist === undefined) {
      const have = Object.keys(served).join(', ') || 'none';
      findings.push(
        at(
          `package-lock.json pins ${pin.name}@${pin.version}, which the host's registry does not serve (it has: ${have})`,
          'install.platform-version',
          `Depend on a version of ${pin.name} the host serves (\`platform upgrade\` picks them), run \`npm install\`, and publish again.`,
        ),
      );
    } else if (
      pin.integrity !== undefined &&
      dist.integrity !== undefined &&
      pin.integrity !== dist.integrity
    ) {
      findings.push(
        at(
          `package-lock.json pins ${pin.name}@${pin.version} with integrity ${pin.integrity}, but the host's registry serves ${dist.integrity}`,
          'install.integrity',
          RELOCK_HINT,
        ),
      );
    } else {
      log.line(`${pin.name}@${pin.version}: from ${registry}, integrity matches`);
    }
  }
  return findings;
}

async function fetchVersions(
  name: string,
  registry: string,
  log: CheckLog,
  signal: AbortSignal | undefined,
): Promise<Record<string, { dist?: { integrity?: string } }> | undefined> {
  const url = new URL(name.replace('/', '%2f'), registry);
  try {
    const timeout = AbortSignal.timeout(30_000);
    const response = await fetch(url, {
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
    if (response.status === 404) return {};
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const packument = (await response.json()) as {
      versions?: Record<string, { dist?: { integrity?: string } }>;
    };
    return packument.versions ?? {};
  } catch (error) {
    signal?.throwIfAborted();
    log.line(`could not read ${url.href} (${(error as Error).message}); npm ci will try`);
    return undefined;
  }
}

// npm's own error lines (`npm error ...`, `npm ERR! ...` before npm 10), most telling first.
function npmFailure(output: string, spawnError: Error | undefined): Finding {
  if (spawnError !== undefined) {
    return at(
      `npm could not be started (${spawnError.message})`,
      'install.failed',
      'Ask the host operator to install npm.',
    );
  }
  const lines = output
    .split('\n')
    .map((line) => /^npm (?:error|ERR!) ?(.*)$/.exec(line)?.[1]?.trim())
    .filter((line): line is string => line !== undefined && line !== '');
  const npmCode = lines.find((line) => line.startsWith('code '))?.slice(5);
  const text = lines
    .filter((line) => !/^(code |A complete log|Log files were not written)/.test(line))
    .slice(0, 6)
    .join(' ');
  const message = `npm ci failed${npmCode === undefined ? '' : ` (${npmCode})`}: ${text || 'see the install log'}`;
  switch (npmCode) {
    case 'EINTEGRITY':
      return at(message, 'install.integrity', RELOCK_HINT);
    case 'E404':
    case 'ETARGET':
      return at(
        message,
        'install.not-found',
        'Depend only on published packages, run `npm install`, and publish again.',
      );
    case 'EUSAGE':
      return at(
        message,
        'install.lockfile',
        'Run `npm install` so package-lock.json matches package.json, and publish again.',
      );
    default:
      return at(
        message,
        'install.failed',
        'Run `npm ci --ignore-scripts` in the project, fix what it reports, and publish again.',
      );
  }
}
