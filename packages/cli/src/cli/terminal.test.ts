import { describe, expect, it, vi } from 'vitest';
import { createProgress } from './progress.js';
import { createStyle, shouldUseColor } from './terminal.js';

describe('shouldUseColor', () => {
  it.each([
    [{ isTTY: true }, {}, true],
    [{ isTTY: false }, {}, false],
    [{}, {}, false],
    [{ isTTY: true }, { NO_COLOR: '1' }, false],
    [{ isTTY: true }, { NO_COLOR: '' }, true],
    [{ isTTY: true }, { TERM: 'dumb' }, false],
    [{ isTTY: false }, { FORCE_COLOR: '1' }, true],
    [{ isTTY: false }, { FORCE_COLOR: '0' }, false],
    [{ isTTY: true }, { FORCE_COLOR: '1', NO_COLOR: '1' }, false],
  ])('stream %j with env %j: %s', (stream, env, expected) => {
    expect(shouldUseColor(stream, env)).toBe(expected);
  });

  it('styles only when enabled', () => {
    expect(createStyle(false).red('x')).toBe('x');
    expect(createStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
  });
});

describe('createProgress', () => {
  it('writes one plain line per step off a terminal', () => {
    const writes: string[] = [];
    const step = createProgress({ isTTY: false, write: (text) => writes.push(text) }).start(
      'Loading 2 integrations',
    );
    step.stop();
    expect(writes).toEqual(['Loading 2 integrations...\n']);
  });

  it('spins in place on a terminal and erases the line when the step ends', () => {
    vi.useFakeTimers();
    try {
      const writes: string[] = [];
      const step = createProgress({ isTTY: true, write: (text) => writes.push(text) }).start('Loading');
      vi.advanceTimersByTime(170);
      step.stop();
      vi.advanceTimersByTime(500);
      expect(writes).toEqual([
        '\r\u001b[2K⠋ Loading',
        '\r\u001b[2K⠙ Loading',
        '\r\u001b[2K⠹ Loading',
        '\r\u001b[2K',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});
