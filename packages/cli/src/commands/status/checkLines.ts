import type { Style } from '../../cli/terminal.js';
import type { HostOutput } from '../../host/hostIO.js';
import type { CheckView, VersionView } from '../../host/hostTypes.js';

const FINAL = new Set<CheckView['status']>(['passed', 'failed', 'skipped']);

/**
 * Writes one line per check as it starts and as it ends. On a terminal the line of a running
 * check is rewritten in place when it ends; elsewhere each change is a line of its own.
 */
export function createCheckLines(
  target: HostOutput,
  style: Style,
): { update(versions: readonly VersionView[]): void; close(): void } {
  const seen = new Map<string, CheckView['status']>();
  let open: string | undefined;
  const tty = target.isTTY === true;

  const write = (key: string, text: string, final: boolean) => {
    if (!tty) {
      target.write(`${text}\n`);
      return;
    }
    if (open !== undefined && open !== key) target.write('\n');
    target.write(`\r\u001b[2K${text}${final ? '\n' : ''}`);
    open = final ? undefined : key;
  };

  return {
    update(versions) {
      for (const version of versions) {
        for (const check of version.checks) {
          const key = `${version.id}\u0000${check.name}`;
          const before = seen.get(key);
          if (before === check.status) continue;
          seen.set(key, check.status);
          if (check.status === 'pending' || (before !== undefined && FINAL.has(before))) continue;
          write(
            key,
            `${version.slug} v${version.number}  ${checkLine(check, style)}`,
            FINAL.has(check.status),
          );
        }
      }
    },
    close() {
      if (tty && open !== undefined) target.write('\n');
      open = undefined;
    },
  };
}

/**
 * A check as one line.
 * @example checkLine({ name: 'install', status: 'passed', ms: 1200 }, style) // '✓ install passed (1.2 s)'
 */
export function checkLine(check: CheckView, style: Style): string {
  const took = check.ms === undefined ? '' : style.dim(` (${(check.ms / 1000).toFixed(1)} s)`);
  const mark = {
    pending: style.dim('·'),
    running: style.cyan('…'),
    passed: style.green('✓'),
    failed: style.red('✗'),
    skipped: style.dim('-'),
  }[check.status];
  return `${mark} ${check.name} ${check.status}${check.status === 'running' ? '' : took}`;
}
