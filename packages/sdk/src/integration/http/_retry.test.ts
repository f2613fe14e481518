import { describe, expect, it } from 'vitest';
import { backoffMs, DEFAULT_RETRY, isNetworkError, retryAfterMs } from './_retry.js';

const NOW = Date.UTC(2030, 0, 2, 3, 4, 5);

describe('retryAfterMs', () => {
  it('reads delay-seconds and HTTP dates; a past date is no wait', () => {
    expect(retryAfterMs('0', NOW)).toBe(0);
    expect(retryAfterMs(' 7 ', NOW)).toBe(7000);
    expect(retryAfterMs(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000);
    expect(retryAfterMs(new Date(NOW - 90_000).toUTCString(), NOW)).toBe(0);
  });

  it('is undefined when absent or unreadable, so backoff applies', () => {
    expect(retryAfterMs(null, NOW)).toBeUndefined();
    expect(retryAfterMs('soon', NOW)).toBeUndefined();
    expect(retryAfterMs('-5', NOW)).toBeUndefined();
    expect(retryAfterMs('1.5', NOW)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('draws up to base * 2^(retry-1), capped at maxDelayMs', () => {
    const top = () => 0.999_999;
    expect([1, 2, 3, 4].map((retry) => backoffMs(DEFAULT_RETRY, retry, top))).toEqual([499, 999, 1999, 3999]);
    expect(backoffMs(DEFAULT_RETRY, 20, top)).toBe(29_999);
    expect(backoffMs(DEFAULT_RETRY, 3, () => 0)).toBe(0);
  });
});

describe('isNetworkError', () => {
  it('is a TypeError, or an error named TypeError (rebuilt across a boundary)', () => {
    expect(isNetworkError(new TypeError('fetch failed'))).toBe(true);
    expect(isNetworkError(Object.assign(new Error('x'), { name: 'TypeError' }))).toBe(true);
    expect(isNetworkError(new Error('x'))).toBe(false);
    expect(isNetworkError(Object.assign(new Error('x'), { name: 'EgressDeniedError' }))).toBe(false);
    expect(isNetworkError('TypeError')).toBe(false);
  });
});
