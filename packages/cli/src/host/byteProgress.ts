import type { HostOutput } from './hostIO.js';

const WIDTH = 24;

/**
 * An upload bar redrawn in place on a terminal (`[#####.....] 52% 1.3 MiB / 2.5 MiB`), at most
 * every 100 ms; `done()` erases it.
 */
export function createByteProgress(
  target: HostOutput,
  label: string,
): { update(sent: number, total: number): void; done(): void } {
  let last = 0;
  const draw = (sent: number, total: number) => {
    const ratio = total === 0 ? 1 : sent / total;
    const filled = Math.round(ratio * WIDTH);
    target.write(
      `\r\u001b[2K${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${Math.floor(ratio * 100)}% ${formatBytes(sent)} / ${formatBytes(total)}`,
    );
  };
  return {
    update(sent, total) {
      const now = Date.now();
      if (sent < total && now - last < 100) return;
      last = now;
      draw(sent, total);
    },
    done() {
      target.write('\r\u001b[2K');
    },
  };
}

/**
 * A byte count for people.
 * @example formatBytes(1536) // '1.5 KiB'
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
