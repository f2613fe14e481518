import type { CheckName, Finding } from './GateResult.js';

/** A finding without undefined optional fields (`exactOptionalPropertyTypes`). */
export function finding(
  check: CheckName,
  code: string,
  message: string,
  extra: {
    severity?: 'error' | 'warning';
    file?: string | undefined;
    line?: number | undefined;
    hint?: string;
  },
): Finding {
  return {
    check,
    severity: extra.severity ?? 'error',
    code,
    message,
    ...(extra.file === undefined ? {} : { file: extra.file }),
    ...(extra.line === undefined ? {} : { line: extra.line }),
    ...(extra.hint === undefined ? {} : { hint: extra.hint }),
  };
}
