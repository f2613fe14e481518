import { redactText } from '../../runtime/redact.js';

/** How much of a vendor's body an error keeps, in characters. */
export const BODY_CHARS_KEPT = 2000;

// Read before redaction: enough that a cut never falls inside what the rules below must see whole.
const BODY_CHARS_READ = 4 * BODY_CHARS_KEPT;

// Vendors echo credentials back in error bodies (a rejected token, a form the request sent): the
// value of any JSON string field or form field whose name says secret, and bearer tokens. The
// closing quote is optional so that a value cut short is still hidden.
const SECRET_NAME = String.raw`[\w-]*(?:token|secret|password|passwd|api[_-]?key|apikey|authorization|credential|signature)[\w-]*`;
const SECRET_JSON_FIELD = new RegExp(String.raw`("${SECRET_NAME}"\s*:\s*)"(?:[^"\\]|\\.)*"?`, 'gi');
const SECRET_FORM_FIELD = new RegExp(String.raw`(\b${SECRET_NAME}=)[^&\s"']+`, 'gi');
const BEARER = /\b(Bearer|Basic|token)\s+[\w.~+/=-]{8,}/gi;

/**
 * A vendor's response body as an error may carry it: URLs redacted (`redactText`), secret-looking
 * fields and bearer tokens replaced, cut to {@link BODY_CHARS_KEPT} characters.
 * @example redactBody('{"error":"bad","access_token":"abc"}') // '{"error":"bad","access_token":"[redacted]"}'
 */
export function redactBody(body: string, kept = BODY_CHARS_KEPT): string {
  const head = body.length > BODY_CHARS_READ ? body.slice(0, BODY_CHARS_READ) : body;
  const redacted = redactText(head)
    .replace(SECRET_JSON_FIELD, '$1"[redacted]"')
    .replace(SECRET_FORM_FIELD, '$1[redacted]')
    .replace(BEARER, '$1 [redacted]');
  if (redacted.length <= kept && head === body) return redacted;
  let end = Math.min(kept, redacted.length);
  // Never end on the first half of a surrogate pair.
  if (end > 0 && /[\uD800-\uDBFF]/.test(redacted.charAt(end - 1))) end -= 1;
  return `${redacted.slice(0, end)} [... cut: the body had ${body.length} characters]`;
}
