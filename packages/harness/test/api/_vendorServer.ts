import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { afterEach } from 'vitest';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/** A made-up vendor on 127.0.0.1 (HTTPS with its own CA, or plain HTTP), closed after the test. */
export async function vendorServer(
  handler: Handler,
  options: { readonly tls?: boolean } = {},
): Promise<{ origin: string; ca: string | undefined; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const wrapped: Handler = (request, response) => {
    requests.push(request);
    handler(request, response);
  };
  let ca: string | undefined;
  let server: ReturnType<typeof createHttpServer>;
  if (options.tls === true) {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: true },
        { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
      ],
    });
    ca = pems.cert;
    server = createHttpsServer({ key: pems.private, cert: pems.cert }, wrapped);
  } else {
    server = createHttpServer(wrapped);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  const { port } = server.address() as AddressInfo;
  return { origin: `${options.tls === true ? 'https' : 'http'}://127.0.0.1:${port}`, ca, requests };
}

/** Answers JSON with a status and extra headers. */
export function json(
  response: ServerResponse,
  body: unknown,
  status = 200,
  headers: Record<string, string | string[]> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}
