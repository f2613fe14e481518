import { redactUrl } from '../../runtime/redact.js';
import { isErrorNamed, RUNTIME_ERROR_CODES } from '../errors.js';
import { redactBody } from './_redactBody.js';

/** What a {@link VendorHttpError} is made of; `url` and `body` are redacted by the constructor. */
export interface VendorHttpErrorInit {
  /** The vendor's name as the client was given it, e.g. `GitHub`. */
  readonly vendor: string;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly statusText?: string;
  /** The response body as text. */
  readonly body?: string;
  /** Tries made, the first included. Default 1. */
  readonly attempts?: number;
}

// HTTP/2 has no reason phrases: the message still names the status.
const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  423: 'Locked',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * A vendor answered a non-2xx status (after the retries the client allows). The message names the
 * vendor, status, method, URL and the start of the body, so the host's log line and the harness's
 * `devError` say what the vendor said; `url` (query dropped) and `body` (URLs and secret-looking
 * fields redacted, cut to about 2 KB) are safe to log.
 * @example
 * try { await github.json('POST', '/repos/o/r/issues', { json: issue }); }
 * catch (error) { if (error instanceof VendorHttpError && error.status === 410) throw new PublicActionError('Issues are off for this repository.', { status: 409 }); throw error; }
 */
export class VendorHttpError extends Error {
  override readonly name = 'VendorHttpError';
  readonly code = RUNTIME_ERROR_CODES.vendorHttp;
  readonly vendor: string;
  readonly status: number;
  readonly statusText: string;
  readonly method: string;
  /** Redacted: no query, userinfo or fragment. */
  readonly url: string;
  /** Redacted and cut to about 2 KB. */
  readonly body: string;
  readonly attempts: number;

  constructor(init: VendorHttpErrorInit, options?: ErrorOptions) {
    const statusText = init.statusText || REASONS[init.status] || '';
    const url = redactUrl(init.url);
    const body = redactBody(init.body ?? '');
    const attempts = init.attempts ?? 1;
    const oneLine = body.replace(/\s+/g, ' ').trim();
    super(
      `${init.vendor} answered ${init.status}${statusText === '' ? '' : ` ${statusText}`} to ${init.method} ${url}` +
        `${attempts > 1 ? ` (after ${attempts} attempts)` : ''}${oneLine === '' ? '' : `: ${oneLine}`}`,
      options,
    );
    this.vendor = init.vendor;
    this.status = init.status;
    this.statusText = statusText;
    this.method = init.method;
    this.url = url;
    this.body = body;
    this.attempts = attempts;
  }
}

/**
 * True for a {@link VendorHttpError}, also one from another copy of the sdk (a bundle carries its
 * own), matched by name.
 * @example if (isVendorHttpError(error) && error.status === 404) return null;
 */
export function isVendorHttpError(error: unknown): error is VendorHttpError {
  return isErrorNamed<VendorHttpError>(error, 'VendorHttpError');
}
