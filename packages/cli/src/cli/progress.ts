/** Reports a long step; `stop()` ends it. */
export interface Progress {
  start(label: string): { stop(): void };
}

/** Where progress goes: a stream and whether it is a terminal. */
export interface ProgressTarget {
  readonly isTTY?: boolean | undefined;
  write(text: string): unknown;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Progress that says nothing: JSON mode and in-process callers. */
export const silentProgress: Progress = { start: () => ({ stop: () => {} }) };

/**
 * A spinner on a terminal (redrawn in place, erased when the step ends), one plain line per step
 * elsewhere. Always on stderr, so stdout carries only the command's output.
 */
export function createProgress(target: ProgressTarget): Progress {
  return {
    start(label) {
      if (target.isTTY !== true) {
        target.write(`${label}...\n`);
        return { stop: () => {} };
      }
      let frame = 0;
      const draw = () => target.write(`\r\u001b[2K${FRAMES[frame++ % FRAMES.length]} ${label}`);
      draw();
      const timer = setInterval(draw, 80);
      timer.unref();
      return {
        stop() {
          clearInterval(timer);
          target.write('\r\u001b[2K');
        },
      };
    },
  };
}
