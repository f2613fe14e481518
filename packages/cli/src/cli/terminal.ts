/** Text styles for human output; each is the identity when colour is off. */
export interface Style {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly green: (text: string) => string;
  readonly cyan: (text: string) => string;
}

/** What {@link shouldUseColor} reads of a stream. */
export interface StreamInfo {
  readonly isTTY?: boolean | undefined;
}

/**
 * Colour only on a TTY; `NO_COLOR` (any non-empty value) always turns it off, `FORCE_COLOR` (other
 * than `0`) turns it on without a TTY, and `TERM=dumb` turns it off.
 */
export function shouldUseColor(
  stream: StreamInfo,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** Styles that colour when `enabled`, and leave text alone otherwise. */
export function createStyle(enabled: boolean): Style {
  if (!enabled) return { bold: plain, dim: plain, red: plain, yellow: plain, green: plain, cyan: plain };
  return {
    bold: ansi(1, 22),
    dim: ansi(2, 22),
    red: ansi(31, 39),
    yellow: ansi(33, 39),
    green: ansi(32, 39),
    cyan: ansi(36, 39),
  };
}

/**
 * A count with its noun, plural unless one.
 * @example plural(2, 'finding') // '2 findings'
 */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
