// `platform mcp grants` and `platform mcp revoke <id>` against a real host: the grants a user gave
// MCP clients (made here by the OAuth flow's consent API), listed with account and last use, and
// one revoked, after which its token no longer opens /mcp.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../host/src/store/users.js';
import { startTestHost, type TestHost } from '../../host/test/_host.js';
import { CliError } from '../src/cli/CliError.js';
import { mcpCommand } from '../src/commands/mcp/command.js';
import { mcpGrants } from '../src/commands/mcp/mcpGrants.js';
import { saveSession } from '../src/host/sessionStore.js';

const REDIRECT = 'http://127.0.0.1:33418/callback';
let host: TestHost;
let server: HttpServer;
let base: string;
let configDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  host = await startTestHost({ projects: ['tools'] });
  server = serve({ fetch: host.app.fetch, port: 0, hostname: '127.0.0.1' }) as HttpServer;
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  configDir = await mkdtemp(join(tmpdir(), 'platform-mcp-cli-'));
  env = { PLATFORM_CONFIG_DIR: configDir };
  saveSession(env, base, { token: host.token, kind: 'token', user: { email: host.email } });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await host.close();
  await rm(configDir, { recursive: true, force: true });
});

/** A client allowed for the seeded account through the consent API, and its access token. */
async function allow(name: string): Promise<string> {
  const registered = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT] }),
  });
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const verifier = randomBytes(32).toString('base64url');
  const request = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${base}/mcp`,
  }).toString();
  const session = await createToken(host.db, { userId: host.userId, kind: 'session' });
  const decided = await fetch(`${base}/api/platform/mcp/consent`, {
    method: 'POST',
    headers: {
      cookie: `platform_session=${session.token}`,
      origin: base,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ request, accountId: host.accountId, decision: 'allow' }),
  });
  const { redirectTo } = ((await decided.json()) as { data: { redirectTo: string } }).data;
  const exchanged = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: new URL(redirectTo).searchParams.get('code') ?? '',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    }),
  });
  return ((await exchanged.json()) as { access_token: string }).access_token;
}

const mcpStatus = async (access: string) =>
  (
    await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${access}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      }),
    })
  ).status;

describe('platform mcp', () => {
  it('lists no grants, then the clients allowed, and revokes one', async () => {
    expect((await mcpGrants({ env, action: 'grants' })).grants).toEqual([]);
    const first = await allow('First Assistant');
    await allow('Second Assistant');
    expect(await mcpStatus(first)).toBe(200);
    const listed = await mcpGrants({ env, action: 'grants' });
    expect(listed.host).toBe(base);
    expect(listed.grants.map((grant) => grant.clientName).sort()).toEqual([
      'First Assistant',
      'Second Assistant',
    ]);
    const grant = listed.grants.find((found) => found.clientName === 'First Assistant');
    expect(grant).toMatchObject({ accountId: host.accountId, lastUsedAt: expect.any(String) });

    const revoked = await mcpGrants({ env, action: 'revoke', id: grant?.id ?? '' });
    expect(revoked.revoked).toEqual({ id: grant?.id, revoked: true });
    expect(revoked.grants.map((found) => found.clientName)).toEqual(['Second Assistant']);
    expect(await mcpStatus(first)).toBe(401);
    const text = mcpCommand.render(revoked, { bold: String, dim: String, green: String } as never);
    expect(text).toContain(`Revoked MCP grant ${grant?.id}.`);
    expect(text).toContain('Second Assistant  account ');
  });

  it('says how to find an id when the grant is unknown', async () => {
    const refused = await mcpGrants({ env, action: 'revoke', id: 'no-such-grant' }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(CliError);
    expect((refused as CliError).hint).toContain('platform mcp grants');
  });
});
