import pino, { type Logger } from 'pino';

/** A host logger writing JSON lines to memory, as `serve` writes them to stdout. */
export interface LogCapture {
  /** Pass as `logger` to `startTestHost` or `createHost`. */
  readonly logger: Logger;
  /** Everything logged so far, as written (one JSON line each). */
  text(): string;
  /** The parsed lines with `event: "security"` and this `kind`. */
  security(kind: string): Record<string, unknown>[];
  clear(): void;
}

/**
 * Captures a host's log output so tests read security events the way an operator filters them.
 * @example const log = captureLog(); const host = await startTestHost({ logger: log.logger });
 */
export function captureLog(): LogCapture {
  let lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
  return {
    logger,
    text: () => lines.join(''),
    security: (kind) =>
      lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.event === 'security' && entry.kind === kind),
    clear() {
      lines = [];
    },
  };
}
