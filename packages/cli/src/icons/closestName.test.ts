import { describe, expect, it } from 'vitest';
import { closestName } from './closestName.js';

describe('closestName', () => {
  const names = ['house', 'mouse', 'bell', 'calendar', 'calendar-days'];

  it('finds the nearest candidate within a third of the length', () => {
    expect(closestName('hous', names)).toBe('house');
    expect(closestName('calender', names)).toBe('calendar');
    expect(closestName('calendar-day', names)).toBe('calendar-days');
  });

  it('prefers the first of equally near candidates', () => {
    expect(closestName('xouse', names)).toBe('house');
  });

  it('suggests nothing when nothing is near', () => {
    expect(closestName('rocket', names)).toBeUndefined();
    expect(closestName('be', names)).toBeUndefined();
  });
});
