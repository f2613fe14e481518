import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { CLI_VERSION } from '../version.js';
import {
  type HostErrorBody,
  hostErrorToCliError,
  notAHostError,
  redirectedError,
  unreachableError,
} from './hostError.js';
import { readHostData, type WireSchema } from './readHostData.js';

/** One answer of the host, envelope unwrapped. */
export type HostAnswer =
  | { readonly ok: true; readonly status: number; readonly data: unknown }
  | { readonly ok: false; readonly status: number; readonly error: HostErrorBody };

/** How far an upload got. */
export type UploadProgress = (sent: number, total: number) => void;

/** Talks to one host's `/api/platform/` routes, with a bearer credential when there is one. */
export interface HostClient {
  readonly origin: string;
  /** The host's answer, error envelopes included; throws only when the host cannot be reached. */
  call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<HostAnswer>;
  /**
   * The `data` of a success, checked against `schema` (a @platform/wire response schema; another
   * shape is `host_error`); an error answer throws it as a {@link CliError}.
   */
  request<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    schema: WireSchema<T>,
    body?: unknown,
  ): Promise<T>;
  /** POSTs a gzipped archive in chunks, reporting the bytes sent; the `data` of a success, checked against `schema`. */
  upload<T>(
    path: string,
    archive: Uint8Array,
    schema: WireSchema<T>,
    onProgress?: UploadProgress,
  ): Promise<T>;
}

const TIMEOUT_MS = 30_000;
const UPLOAD_TIMEOUT_MS = 10 * 60_000;
const CHUNK = 64 * 1024;
const USER_AGENT = `platform-cli/${CLI_VERSION}`;

/**
 * A client of the host at `origin` (an origin, as {@link parseHostUrl} makes it).
 * @example await createHostClient('http://127.0.0.1:8787', token).request('GET', '/api/platform/me')
 */
export function createHostClient(origin: string, token?: string): HostClient {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': USER_AGENT,
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
  };

  async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<HostAnswer> {
    let response: Response;
    try {
      response = await fetch(new URL(path, origin), {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'manual',
      });
    } catch (thrown) {
      throw unreachableError(origin, thrown);
    }
    if (response.status >= 300 && response.status < 400) {
      throw redirectedError(origin, response.status, response.headers.get('location'));
    }
    let text: string;
    try {
      text = await response.text();
    } catch (thrown) {
      throw unreachableError(origin, thrown);
    }
    return parseAnswer(origin, response.status, text);
  }

  async function request<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    schema: WireSchema<T>,
    body?: unknown,
  ): Promise<T> {
    return readHostData(origin, `${method} ${path}`, schema, unwrap(origin, await call(method, path, body)));
  }

  async function upload<T>(
    path: string,
    archive: Uint8Array,
    schema: WireSchema<T>,
    onProgress?: UploadProgress,
  ): Promise<T> {
    const { status, location, text } = await postChunks(
      new URL(path, origin),
      archive,
      headers,
      onProgress,
    ).catch((thrown: unknown) => {
      throw unreachableError(origin, thrown);
    });
    if (status >= 300 && status < 400) throw redirectedError(origin, status, location);
    return readHostData(origin, `POST ${path}`, schema, unwrap(origin, parseAnswer(origin, status, text)));
  }

  return { origin, call, request, upload };
}

function unwrap(origin: string, answer: HostAnswer): unknown {
  if (answer.ok) return answer.data;
  throw hostErrorToCliError(origin, answer.status, answer.error);
}

function parseAnswer(origin: string, status: number, text: string): HostAnswer {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notAHostError(origin, status);
  }
  const envelope = value as { ok?: unknown; data?: unknown; error?: Partial<HostErrorBody> } | null;
  if (envelope?.ok === true) return { ok: true, status, data: envelope.data };
  if (envelope?.ok === false && typeof envelope.error?.code === 'string') {
    const error = envelope.error as HostErrorBody;
    return {
      ok: false,
      status,
      error: { ...error, message: typeof error.message === 'string' ? error.message : error.code },
    };
  }
  throw notAHostError(origin, status);
}

// node:http rather than fetch: writing the body chunk by chunk is what lets the bytes be counted.
function postChunks(
  url: URL,
  archive: Uint8Array,
  headers: Record<string, string>,
  onProgress: UploadProgress | undefined,
): Promise<{ status: number; location: string | null; text: string }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = send(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/gzip',
        'content-length': String(archive.byteLength),
      },
      timeout: UPLOAD_TIMEOUT_MS,
    });
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          location: response.headers.location ?? null,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () =>
      request.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
    );
    // A host that refuses early (401, 413) may close before the body is through: its answer wins.
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    void (async () => {
      let sent = 0;
      onProgress?.(0, archive.byteLength);
      while (sent < archive.byteLength && !answered && !request.destroyed) {
        const chunk = archive.subarray(sent, sent + CHUNK);
        const flushed = request.write(chunk);
        sent += chunk.byteLength;
        onProgress?.(sent, archive.byteLength);
        if (!flushed)
          await new Promise<void>((drained) => {
            const done = () => {
              request.off('drain', done);
              request.off('close', done);
              drained();
            };
            request.on('drain', done);
            request.on('close', done);
          });
      }
      if (!request.destroyed) request.end();
    })();
  });
}
