import { createMemoryCapabilities, type LogEntry } from '@platform/sdk/runtime';
import { describe, expect, it } from 'vitest';
import { applyLogs } from '../src/runtime/_runnerGuest.js';

// What the host takes from a runner's batched log lines: the runner is trusted no more than the
// isolates in it, so anything but an array of JSON lines is dropped, line by line.
describe('runner channel: batched log lines', () => {
  const collect = () => {
    const lines: LogEntry[] = [];
    return {
      lines,
      call: { capabilities: { ...createMemoryCapabilities(), log: (entry: LogEntry) => lines.push(entry) } },
    };
  };

  it('applies JSON lines in order', () => {
    const { lines, call } = collect();
    applyLogs(call, [
      JSON.stringify({ level: 'info', message: 'one' }),
      JSON.stringify({ level: 'warn', message: 'two' }),
    ]);
    expect(lines).toEqual([
      { level: 'info', message: 'one' },
      { level: 'warn', message: 'two' },
    ]);
  });

  it('drops garbage: no array, lines that are no JSON object, and calls no longer in flight', () => {
    const { lines, call } = collect();
    for (const garbage of [undefined, null, 'x', 42, { 0: '{}' }, '[{"level":"info","message":"s"}]']) {
      applyLogs(call, garbage);
    }
    applyLogs(call, ['{not json', 7, null, JSON.stringify({ level: 'info', message: 'kept' }), '{"level":']);
    applyLogs(undefined, [JSON.stringify({ level: 'info', message: 'nobody' })]);
    // Only JSON objects reach the call's logger (which checks level and message).
    expect(lines).toEqual([{ level: 'info', message: 'kept' }]);
  });

  it('keeps going past a logger that throws', () => {
    const seen: string[] = [];
    applyLogs(
      {
        capabilities: {
          ...createMemoryCapabilities(),
          log: (entry) => {
            seen.push(entry.message);
            if (entry.message === 'boom') throw new Error('logger failed');
          },
        },
      },
      ['{"level":"info","message":"boom"}', '{"level":"info","message":"after"}'],
    );
    expect(seen).toEqual(['boom', 'after']);
  });
});
