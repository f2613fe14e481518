import { afterAll, beforeAll, expect, it } from 'vitest';
import { nestsDeeper } from '../src/routes/_jsonBody.js';
import { type NodeServedHost, serveOverNode } from './_nodeServer.js';

// The one body limit of the JSON routes, through a real node server: a large nested body to
// sign-in (declared or streamed) is refused at the byte limit without the host reading it whole,
// while another client's sign-in at the same time is answered as usual; a small body nested
// deeper than the depth limit is refused before JSON.parse.

let served: NodeServedHost;
let base: string;
beforeAll(async () => {
  served = await serveOverNode({ runtime: 'in-process' });
  base = served.base;
});
afterAll(async () => {
  await served?.close();
});

const MiB = 1024 * 1024;
const signIn = (body: BodyInit, extra: RequestInit = {}) =>
  fetch(`${base}/api/platform/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    ...extra,
  } as RequestInit);
const other = () => signIn(JSON.stringify({ email: 'someone@example.com', password: 'wrong' }));

/** 32 MiB of `[`, streamed in 64 KiB chunks with no Content-Length. */
function nestedStream(): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(0x5b);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= 32 * MiB) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

async function againstAnother(big: () => Promise<Response>) {
  const rssBefore = process.memoryUsage().rss;
  const bigDone = big().then(async (response) => {
    return { status: response.status, body: (await response.json()) as any };
  });
  const otherDone = other().then((response) => response.status);
  const deadline = new Promise((_, reject) =>
    setTimeout(() => reject(new Error('the other client was not answered within 5 s')), 5000),
  );
  expect(await Promise.race([otherDone, deadline])).toBe(401);
  const refused = await bigDone;
  return { refused, rssGrowth: process.memoryUsage().rss - rssBefore };
}

it('refuses a declared 32 MiB nested body to sign-in with 413, naming the limit, unread', async () => {
  const { refused, rssGrowth } = await againstAnother(() => signIn('['.repeat(32 * MiB)));
  expect(refused.status).toBe(413);
  expect(refused.body.error).toMatchObject({
    code: 'payload_too_large',
    message: `The body is larger than ${256 * 1024} bytes (limits.jsonBodyBytes).`,
  });
  expect(refused.body.error.hint).toMatch(/smaller body/);
  // The test's own 32 MiB string is most of it; a parsed body of brackets would be gigabytes.
  expect(rssGrowth).toBeLessThan(400 * MiB);
});

it('cuts a streamed 32 MiB nested body off at the limit, while the other client is answered', async () => {
  const { refused, rssGrowth } = await againstAnother(() =>
    signIn(nestedStream(), { duplex: 'half' } as RequestInit),
  );
  expect(refused.status).toBe(413);
  expect(refused.body.error.code).toBe('payload_too_large');
  expect(rssGrowth).toBeLessThan(200 * MiB);
});

it('refuses a small body nested deeper than the depth limit with 400, before parsing it', async () => {
  const response = await signIn(`${'['.repeat(1000)}${']'.repeat(1000)}`);
  expect(response.status).toBe(400);
  const body = (await response.json()) as any;
  expect(body.error.code).toBe('invalid_input');
  expect(body.error.message).toBe(
    'The body nests arrays and objects deeper than 32 levels (limits.jsonBodyDepth).',
  );
  expect(body.error.hint).toMatch(/^Send a flatter body: \{ "email"/);
  // A body within both limits still reaches the route.
  expect((await other()).status).toBe(401);
});

it('counts brackets outside strings only', () => {
  expect(nestsDeeper('{"a":[[1]]}', 3)).toBe(false);
  expect(nestsDeeper('{"a":[[[1]]]}', 3)).toBe(true);
  expect(nestsDeeper(`{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`, 1)).toBe(false);
});

it('checks the body against the wire request schema, naming the path of the issue', async () => {
  const response = await signIn(JSON.stringify({ email: 'someone@example.com', password: 7 }));
  expect(response.status).toBe(400);
  const body = (await response.json()) as any;
  expect(body.error.code).toBe('invalid_input');
  expect(body.error.message).toMatch(/^password: /);
  expect(body.error.issues[0].path).toEqual(['password']);
});
