import { useEffect, useState } from 'react';

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 1],
  ['minute', 60],
  ['hour', 3600],
  ['day', 86_400],
  ['month', 2_592_000],
  ['year', 31_536_000],
];

/** A moment the chrome accepts: a `Date`, epoch milliseconds or an ISO string. */
export type Moment = Date | number | string;

export function toDate(moment: Moment | undefined): Date | undefined {
  if (moment === undefined) return undefined;
  const date = moment instanceof Date ? moment : new Date(moment);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** "5 minutes ago", "yesterday", "in 2 hours"; under 45 seconds either way, `justNow`. */
export function formatRelativeTime(date: Date, now: number, locale: string, justNow: string): string {
  const seconds = (date.getTime() - now) / 1000;
  if (Math.abs(seconds) < 45) return justNow;
  let unit: Intl.RelativeTimeFormatUnit = 'second';
  let size = 1;
  for (const [candidate, candidateSize] of UNITS) {
    if (Math.abs(seconds) >= candidateSize * 0.75 || candidate === 'second') {
      unit = candidate;
      size = candidateSize;
    }
  }
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(Math.round(seconds / size), unit);
}

/** The current time, refreshed every `intervalMs` while `active`, so relative times stay true. */
export function useNow(active: boolean, intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}
