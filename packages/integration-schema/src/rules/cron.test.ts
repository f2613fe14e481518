import { describe, expect, it } from 'vitest';
import { CRON_FIELDS, type CronFields, checkCron } from './cron.js';

const range = (from: number, to: number, step = 1): number[] => {
  const values: number[] = [];
  for (let value = from; value <= to; value += step) values.push(value);
  return values;
};

const ALL: CronFields = {
  minute: range(0, 59),
  hour: range(0, 23),
  dayOfMonth: range(1, 31),
  month: range(1, 12),
  dayOfWeek: range(0, 6),
};

describe('checkCron accepts', () => {
  it.each([
    '* * * * *',
    '*/15 * * * *',
    '0 9 * * 1-5',
    '0-30/5 * * * *',
    '0 0 1,15 * *',
    '0 0 * * 7',
    '0 0 * * 0',
    '59 23 31 12 0',
    '0 0 1 1 *',
    '5-5 * * * *',
    '05 09 * * *',
    '  0   9  *  *   1-5  ',
    '0\t9\t*\t*\t1-5',
    '1,2,3 0-23/2 1-31/10 */3 0-7',
    '*/59 */23 */30 */11 */6',
    '0 0 * * 5-7',
  ])('%j', (expression) => {
    expect(checkCron(expression).ok).toBe(true);
  });

  it.each<[string, Partial<CronFields>]>([
    ['* * * * *', ALL],
    ['*/15 * * * *', { minute: [0, 15, 30, 45] }],
    ['0 9 * * 1-5', { minute: [0], hour: [9], dayOfWeek: [1, 2, 3, 4, 5] }],
    ['0-30/5 * * * *', { minute: [0, 5, 10, 15, 20, 25, 30] }],
    ['0 0 1,15 * *', { minute: [0], hour: [0], dayOfMonth: [1, 15] }],
    ['0 0 * * 7', { minute: [0], hour: [0], dayOfWeek: [0] }],
    ['0 0 * * 0,7', { minute: [0], hour: [0], dayOfWeek: [0] }],
    ['0 0 * * 5-7', { minute: [0], hour: [0], dayOfWeek: [0, 5, 6] }],
    ['* * * * 0-7', { dayOfWeek: [0, 1, 2, 3, 4, 5, 6] }],
    ['59 23 31 12 0', { minute: [59], hour: [23], dayOfMonth: [31], month: [12], dayOfWeek: [0] }],
    ['05 09 * * *', { minute: [5], hour: [9] }],
    ['30,1,15,1 * * * *', { minute: [1, 15, 30] }],
    ['* * * */3 *', { month: [1, 4, 7, 10] }],
    ['* * 1-31/10 * *', { dayOfMonth: [1, 11, 21, 31] }],
  ])('%j expands', (expression, expected) => {
    const result = checkCron(expression);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.fields).toEqual({ ...ALL, ...expected });
  });
});

describe('checkCron refuses', () => {
  const five = 'expected 5 fields (minute hour day-of-month month day-of-week)';
  it.each([
    // field count
    ['', 'the cron expression is empty; expected 5 fields (minute hour day-of-month month day-of-week)'],
    [
      '   \t ',
      'the cron expression is empty; expected 5 fields (minute hour day-of-month month day-of-week)',
    ],
    ['* * * *', `${five}, got 4`],
    ['0 * * * * *', `${five}, got 6; a seconds field is not supported`],
    ['0 0 * * * 2030', `${five}, got 6; a year field is not supported`],
    ['0 0 0 * * * 2030', `${five}, got 7; seconds and year fields are not supported`],
    // macros
    [
      '@daily',
      '"@daily" is a macro; macros are not supported, write the 5 fields instead (for example "0 0 * * *")',
    ],
    [
      '@hourly',
      '"@hourly" is a macro; macros are not supported, write the 5 fields instead (for example "0 * * * *")',
    ],
    [
      '@reboot',
      '"@reboot" is a macro; macros are not supported, write the 5 fields instead (minute hour day-of-month month day-of-week)',
    ],
    [
      '@DAILY',
      '"@DAILY" is a macro; macros are not supported, write the 5 fields instead (for example "0 0 * * *")',
    ],
    // names
    ['0 0 * * MON', 'day-of-week field "MON" uses a name; use numbers 0-7 (0 and 7 are Sunday)'],
    ['0 0 * * mon-fri', 'day-of-week field "mon-fri" uses a name; use numbers 0-7 (0 and 7 are Sunday)'],
    ['0 0 1 JAN *', 'month field "JAN" uses a name; use numbers 1-12'],
    ['0 0 1 1,FEB *', 'month field "1,FEB" item "FEB" uses a name; use numbers 1-12'],
    ['0 0 * MON *', 'month field "MON": letters are not supported; use numbers 1-12'],
    // out of range, per field
    ['60 * * * *', 'minute field "60" is out of range 0-59'],
    ['* 24 * * *', 'hour field "24" is out of range 0-23'],
    ['* 1,24 * * *', 'hour field "1,24" item "24" is out of range 0-23'],
    ['* 20-25 * * *', 'hour field "20-25" is out of range 0-23'],
    ['* * 0 * *', 'day-of-month field "0" is out of range 1-31'],
    ['* * 32 * *', 'day-of-month field "32" is out of range 1-31'],
    ['* * * 0 *', 'month field "0" is out of range 1-12'],
    ['* * * 13 *', 'month field "13" is out of range 1-12'],
    ['* * * * 8', 'day-of-week field "8" is out of range 0-7 (0 and 7 are Sunday)'],
    ['99999999999999999999999 * * * *', 'minute field "99999999999999999999999" is out of range 0-59'],
    // steps
    ['*/0 * * * *', 'minute field "*/0": a step must be at least 1'],
    ['0-30/0 * * * *', 'minute field "0-30/0": a step must be at least 1'],
    ['*/60 * * * *', 'minute field "*/60": a step must be at most 59'],
    ['* * * */12 *', 'month field "*/12": a step must be at most 11'],
    ['5/10 * * * *', 'minute field "5/10": a step needs "*" or a range before it, for example "5-59/10"'],
    ['*/ * * * *', 'minute field "*/": expected a number, "*", a range such as "1-5", or a step such as'],
    ['70/10 * * * *', 'minute field "70/10" is out of range 0-59'],
    [
      '* * 10/5 * *',
      'day-of-month field "10/5": a step needs "*" or a range before it, for example "10-31/5"',
    ],
    // ranges
    ['* 5-1 * * *', 'hour field "5-1": a range must ascend; to wrap around, write "5-23,0-1"'],
    ['* * * * 5-1', 'day-of-week field "5-1": a range must ascend; to wrap around, write "5-6,0-1"'],
    ['1- * * * *', 'minute field "1-": expected a number, "*", a range such as "1-5"'],
    ['-1 * * * *', 'minute field "-1": signs and negative numbers are not supported; use numbers 0-59'],
    ['1--2 * * * *', 'minute field "1--2": signs and negative numbers are not supported; use numbers 0-59'],
    ['+1 * * * *', 'minute field "+1": signs and negative numbers are not supported; use numbers 0-59'],
    ['*-5 * * * *', 'minute field "*-5": expected a number'],
    // unsupported special characters
    ['0 0 ? * 1', 'day-of-month field "?": "?" is not supported; use "*"'],
    [
      '0 0 L * *',
      'day-of-month field "L": "L" (last day / nearest weekday) is not supported; use numbers 1-31',
    ],
    [
      '0 0 15W * *',
      'day-of-month field "15W": "W" (last day / nearest weekday) is not supported; use numbers 1-31',
    ],
    [
      '0 0 * * 5L',
      'day-of-week field "5L": "L" (last day / nearest weekday) is not supported; use numbers 0-7 (0 and 7 are Sunday)',
    ],
    [
      '0 0 * * 1#2',
      'day-of-week field "1#2": "#" (nth weekday of the month) is not supported; use numbers 0-7 (0 and 7 are Sunday)',
    ],
    // list and number syntax
    ['1,,2 * * * *', 'minute field "1,,2" has an empty list item; remove the extra comma'],
    ['1, * * * *', 'minute field "1," has an empty list item; remove the extra comma'],
    ['1.5 * * * *', 'minute field "1.5": decimals are not supported; use whole numbers 0-59'],
    // a non-breaking space is not a separator
    ['0\u00a00 * * * *', 'minute field "0\u00a00": expected a number'],
  ])('%j', (expression, message) => {
    const result = checkCron(expression);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });

  it('refuses a non-string value from untyped config', () => {
    expect(checkCron(5 as unknown as string)).toEqual({
      ok: false,
      message: 'a cron expression must be a string',
    });
  });

  it('reports the first failing field in order', () => {
    expect(checkCron('60 24 * * *')).toEqual({
      ok: false,
      message: 'minute field "60" is out of range 0-59',
    });
  });
});

describe('CRON_FIELDS', () => {
  it('lists the five fields in expression order', () => {
    expect(CRON_FIELDS.map(({ name, min, max }) => `${name} ${min}-${max}`)).toEqual([
      'minute 0-59',
      'hour 0-23',
      'day-of-month 1-31',
      'month 1-12',
      'day-of-week 0-7',
    ]);
  });
});
