import { describe, expect, it } from 'vitest';
import { createLogBudgets, type LogBudgetLimits } from './logBudget.js';

const LIMITS: LogBudgetLimits = {
  bytesPerCall: 1000,
  linesPerCall: 5,
  bytesPerMinute: 5000,
  linesPerMinute: 12,
};

describe('createLogBudgets: per call', () => {
  it('admits up to the line budget, then one notice, then nothing', () => {
    const call = createLogBudgets(LIMITS).forCall('acme');
    for (let line = 0; line < 5; line += 1) expect(call.admit(10)).toEqual({ admitted: true });
    expect(call.closed()).toBe(false);
    expect(call.admit(10)).toEqual({
      admitted: false,
      notice: {
        budget: 'call',
        message:
          'partner log truncated: this call went past its log budget (5 lines, 1000 bytes); further lines dropped',
        loggedLines: 5,
        loggedBytes: 50,
      },
    });
    expect(call.closed()).toBe(true);
    expect(call.admit(1)).toEqual({ admitted: false });
    expect(call.admit(1)).toEqual({ admitted: false });
  });

  it('admits up to the byte budget; a small line after the first refusal is dropped too', () => {
    const call = createLogBudgets(LIMITS).forCall('acme');
    expect(call.admit(600)).toEqual({ admitted: true });
    expect(call.admit(400)).toEqual({ admitted: true });
    const refused = call.admit(1);
    expect(refused).toMatchObject({ admitted: false, notice: { budget: 'call', loggedBytes: 1000 } });
    expect(call.admit(0)).toEqual({ admitted: false });
  });

  it('gives each call its own budget', () => {
    const budgets = createLogBudgets(LIMITS);
    const first = budgets.forCall('acme');
    for (let line = 0; line < 6; line += 1) first.admit(1);
    expect(first.closed()).toBe(true);
    expect(budgets.forCall('acme').admit(1)).toEqual({ admitted: true });
  });
});

describe('createLogBudgets: per integration and minute', () => {
  it('shares a fixed window across calls, one notice per window, a fresh budget next minute', () => {
    let now = Date.UTC(2025, 0, 1, 12, 0, 30);
    const budgets = createLogBudgets(LIMITS, () => now);
    const calls = [budgets.forCall('acme'), budgets.forCall('acme'), budgets.forCall('acme')];
    for (const call of calls.slice(0, 2)) for (let line = 0; line < 5; line += 1) call.admit(1);
    const third = calls[2]!;
    expect(third.admit(1)).toEqual({ admitted: true });
    expect(third.admit(1)).toEqual({ admitted: true });
    expect(third.admit(1)).toEqual({
      admitted: false,
      notice: {
        budget: 'minute',
        message:
          'partner log truncated: this integration went past its log budget for this minute (12 lines, 5000 bytes); further lines dropped until the next minute',
        loggedLines: 12,
        loggedBytes: 12,
      },
    });
    // Another call of the same integration in the same window: dropped without a second notice.
    const late = budgets.forCall('acme');
    expect(late.closed()).toBe(true);
    expect(late.admit(1)).toEqual({ admitted: false });
    // Other integrations have their own window.
    expect(budgets.forCall('other').admit(1)).toEqual({ admitted: true });
    // The window is fixed: 30 s later is the next minute, and the same calls may log again.
    now += 29_999;
    expect(late.closed()).toBe(true);
    now += 1;
    expect(late.closed()).toBe(false);
    expect(late.admit(1)).toEqual({ admitted: true });
    expect(third.admit(1)).toEqual({ admitted: true });
  });

  it('counts bytes per minute too', () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0);
    const budgets = createLogBudgets({ ...LIMITS, bytesPerMinute: 1500 }, () => now);
    expect(budgets.forCall('acme').admit(1000)).toEqual({ admitted: true });
    const second = budgets.forCall('acme');
    expect(second.admit(400)).toEqual({ admitted: true });
    expect(second.admit(101)).toMatchObject({
      admitted: false,
      notice: { budget: 'minute', loggedBytes: 1400 },
    });
    expect(budgets.forCall('acme').admit(1)).toEqual({ admitted: false });
  });

  it('says the minute notice, not the call notice, when both are exceeded by the same line', () => {
    const budgets = createLogBudgets({ ...LIMITS, linesPerMinute: 5 }, () => 0);
    const call = budgets.forCall('acme');
    for (let line = 0; line < 5; line += 1) call.admit(1);
    expect(call.admit(1)).toMatchObject({ admitted: false, notice: { budget: 'minute' } });
  });
});
