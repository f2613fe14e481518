import type { ConnectionDeclaration } from '../integration/types.js';

/**
 * The `Authorization` value a connection's entered fields make: the apiKey `header` template with
 * each `{name}` replaced by that field's value, or `Basic base64(username:password)` (UTF-8). The
 * host and the harness attach it to the `verify` request and to `ctx.fetch` requests for the
 * connection's `authorization.origins`.
 * @example connectionAuthorization({ kind: 'apiKey', header: 'Bearer {apiKey}', ... }, { apiKey: 'k' }) // 'Bearer k'
 */
export function connectionAuthorization(
  connection: Pick<ConnectionDeclaration, 'kind' | 'header'>,
  values: Readonly<Record<string, string>>,
): string {
  if (connection.kind === 'basic') {
    const pair = new TextEncoder().encode(`${values.username ?? ''}:${values.password ?? ''}`);
    return `Basic ${btoa(String.fromCharCode(...pair))}`;
  }
  return (connection.header ?? '').replace(/\{([^{}]*)\}/g, (_whole, name: string) => values[name] ?? '');
}

/** Whether `ctx.fetch` attaches the connection's `Authorization` to `url`: its origin is declared and the request has none. */
export function attachesConnectionAuthorization(
  connection: Pick<ConnectionDeclaration, 'authorization'> | undefined,
  url: string,
  headers: readonly (readonly [string, string])[],
): boolean {
  const origins = connection?.authorization?.origins;
  if (origins === undefined) return false;
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return false;
  }
  return origins.includes(origin) && !headers.some(([name]) => name.toLowerCase() === 'authorization');
}
