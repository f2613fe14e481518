// The host-facing commands (login, logout, sessions, use, sources, publish, status) run as the real `platform`
// binary against a small host on 127.0.0.1 that answers the publish contract's routes.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { Parser } from 'tar';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CLI_BIN,
  cleanEnv,
  entrySource,
  envelopeOf,
  linkRepoNodeModules,
  projectFiles,
  run,
  tempDirectories,
  writeFiles,
} from './_helpers.js';

const tempDir = tempDirectories();

// ---------------------------------------------------------------------------------------------
// The fake host
// ---------------------------------------------------------------------------------------------

interface FakeUser {
  readonly email: string;
  readonly name: string;
  mfaPending?: boolean;
  failure?: 'expired' | 'revoked';
}

interface Seat {
  readonly slug: string;
  readonly name: string;
  readonly stage: string;
  readonly role: string;
}

interface Upload {
  readonly source: string;
  readonly contentType: string | undefined;
  readonly authorization: string | undefined;
  readonly entries: string[];
  readonly manifest: string | undefined;
}

interface HostState {
  users: Record<string, FakeUser>;
  seats: Seat[];
  /** The device flow's answers to each poll, in order; `approve` hands out `grant`. */
  devicePolls: ('authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'approve')[];
  deviceInterval: number;
  grant: { token: string; mfa_pending: boolean; user: { id: string; email: string; name: string } };
  pollTimes: number[];
  deviceCodeAt: number;
  uploads: Upload[];
  /** Answers of GET versions in turn; the last one repeats. */
  versions: unknown[][];
  findings: Record<string, unknown[]>;
  requests: string[];
  sessions: Record<string, unknown>[];
  tokens: Record<string, unknown>[];
  /** What GET sessions answers instead of the list (a host of another shape). */
  sessionsAnswer?: unknown;
  /** How every route answers instead: a redirect, or a page that is no Platform envelope. */
  answerInstead?: 'redirect' | 'html';
}

const ALICE: FakeUser = { email: 'alice@acme.example', name: 'Alice' };
const SEATS: Seat[] = [
  { slug: 'acme', name: 'Acme', stage: 'production', role: 'viewer' },
  { slug: 'acme-dev', name: 'Acme (development)', stage: 'development', role: 'publisher' },
];

function freshState(): HostState {
  return {
    users: { 'cli-alice': { ...ALICE }, 'pat-alice': { ...ALICE } },
    seats: SEATS,
    devicePolls: ['approve'],
    deviceInterval: 0,
    grant: { token: 'cli-alice', mfa_pending: false, user: { id: 'u1', ...ALICE } },
    pollTimes: [],
    deviceCodeAt: 0,
    uploads: [],
    versions: [[]],
    findings: {},
    requests: [],
    sessions: [
      {
        id: 'cli-1',
        kind: 'cli',
        name: 'platform CLI on laptop',
        createdAt: '2026-12-01T10:00:00.000Z',
        expiresAt: '2026-12-31T10:00:00.000Z',
        lastUsedAt: '2026-12-07T09:00:00.000Z',
        lastUsedAddress: '127.0.0.1',
        current: true,
      },
      {
        id: 'web-1',
        kind: 'browser',
        name: null,
        createdAt: '2026-12-02T10:00:00.000Z',
        expiresAt: '2026-12-16T10:00:00.000Z',
        lastUsedAt: null,
        lastUsedAddress: null,
        current: false,
      },
    ],
    tokens: [
      {
        id: 'tok-ci',
        name: 'ci',
        scopes: ['publish'],
        createdAt: '2026-12-03T10:00:00.000Z',
        expiresAt: null,
        lastUsedAt: null,
        lastUsedAddress: null,
        sessionId: 'cli-1',
      },
    ],
  };
}

let state = freshState();
let server: Server;
let origin: string;

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function fail(response: ServerResponse, status: number, code: string, message: string, extra = {}): void {
  send(response, status, { ok: false, error: { code, message, ...extra } });
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listArchive(archive: Buffer): Promise<{ entries: string[]; manifest: string | undefined }> {
  const entries: string[] = [];
  let manifest: string | undefined;
  await new Promise<void>((resolve, reject) => {
    const parser = new Parser({
      onReadEntry(entry) {
        entries.push(entry.path);
        if (entry.path === 'platform.json') {
          const chunks: Buffer[] = [];
          entry.on('data', (chunk: Buffer) => chunks.push(chunk));
          entry.on('end', () => {
            manifest = Buffer.concat(chunks).toString('utf8');
          });
        } else entry.resume();
      },
    });
    parser.on('end', resolve);
    parser.on('error', reject);
    parser.end(archive);
  });
  return { entries, manifest };
}

/** The user of the bearer token, or the 401 the contract describes. */
function authenticate(
  request: IncomingMessage,
  response: ServerResponse,
  options: { allowMfaPending?: boolean } = {},
): FakeUser | undefined {
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  const user = token === undefined ? undefined : state.users[token];
  const reason =
    token === undefined
      ? 'missing'
      : user === undefined
        ? 'unknown'
        : (user.failure ??
          (user.mfaPending === true && options.allowMfaPending !== true ? 'mfa_pending' : undefined));
  if (reason === undefined) return user;
  const messages: Record<string, string> = {
    missing: `You are not signed in to ${origin}.`,
    unknown: `${origin} does not know this credential.`,
    expired: `Your sign-in to ${origin} expired.`,
    revoked: `Your sign-in to ${origin} was revoked.`,
    mfa_pending: `Your sign-in to ${origin} waits for an authenticator code.`,
  };
  fail(response, 401, 'auth_required', messages[reason] ?? reason, {
    reason,
    hint:
      reason === 'mfa_pending'
        ? `Enter your authenticator code: \`platform login --host ${origin} --mfa-code <code>\`.`
        : `Run \`platform login --host ${origin}\`.`,
  });
  return undefined;
}

function seatOr403(response: ServerResponse, source: string, roles: string[]): boolean {
  const seat = state.seats.find((item) => item.slug === source);
  if (seat !== undefined && roles.includes(seat.role)) return true;
  fail(response, 403, 'forbidden', `You need a publisher or owner seat on source "${source}".`, {
    hint: `Your seats: ${state.seats.map((item) => `${item.slug} (${item.role})`).join(', ')}. Ask an owner of "${source}" for a publisher seat, or pick a source you publish to with \`platform use <source-slug>\`.`,
  });
  return false;
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', origin);
  const path = url.pathname;
  state.requests.push(`${request.method} ${path}${url.search}`);
  const body = await bodyOf(request);
  if (state.answerInstead === 'redirect') {
    response.writeHead(308, { location: `https://secure.example${path}` });
    response.end();
    return;
  }
  if (state.answerInstead === 'html') {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>Welcome</title>');
    return;
  }
  const json = () => JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;

  if (request.method === 'POST' && path === '/api/platform/device/code') {
    state.deviceCodeAt = Date.now();
    send(response, 200, {
      ok: true,
      data: {
        device_code: 'device-code-1',
        user_code: 'BCDF-GHJK',
        verification_uri: `${origin}/device`,
        verification_uri_complete: `${origin}/device?code=BCDF-GHJK`,
        interval: state.deviceInterval,
        expires_in: 600,
      },
    });
    return;
  }
  if (request.method === 'POST' && path === '/api/platform/device/token') {
    state.pollTimes.push(Date.now());
    expect(json().device_code).toBe('device-code-1');
    const next = state.devicePolls.shift() ?? 'expired_token';
    if (next === 'approve') {
      send(response, 200, {
        ok: true,
        data: { ...state.grant, token_type: 'Bearer', expires_at: '2099-01-01T00:00:00.000Z' },
      });
    } else {
      fail(response, 400, next, `device: ${next}`, {
        hint: `Run \`platform login --host ${origin}\` again.`,
        ...(next === 'slow_down' ? { interval: 2 } : {}),
      });
    }
    return;
  }
  if (request.method === 'POST' && path === '/api/platform/mfa/verify') {
    const user = authenticate(request, response, { allowMfaPending: true });
    if (user === undefined) return;
    if (json().code !== '123456') {
      fail(response, 401, 'auth_required', 'The authenticator code is wrong or out of date.', {
        reason: 'mfa_invalid',
        hint: `Enter the current code from your authenticator app: \`platform login --host ${origin} --mfa-code <code>\`.`,
      });
      return;
    }
    user.mfaPending = false;
    send(response, 200, { ok: true, data: { user, mfa_pending: false } });
    return;
  }
  if (request.method === 'GET' && path === '/api/platform/sessions') {
    if (authenticate(request, response) === undefined) return;
    send(response, 200, { ok: true, data: state.sessionsAnswer ?? { sessions: state.sessions } });
    return;
  }
  if (request.method === 'GET' && path === '/api/platform/tokens') {
    if (authenticate(request, response) === undefined) return;
    send(response, 200, { ok: true, data: { tokens: state.tokens } });
    return;
  }
  const revoking = /^\/api\/platform\/(sessions|tokens)\/([^/]+)$/.exec(path);
  if (request.method === 'DELETE' && revoking !== null && revoking[2] !== 'current') {
    if (authenticate(request, response) === undefined) return;
    const kind = revoking[1] ?? '';
    const id = revoking[2] ?? '';
    const list = kind === 'sessions' ? state.sessions : state.tokens;
    const at = list.findIndex((item) => (item as { id: string }).id === id);
    if (at < 0) return fail(response, 404, 'invalid_request', `You have no ${kind.slice(0, -1)} ${id}.`);
    list.splice(at, 1);
    const revokedAt = new Date().toISOString();
    send(response, 200, {
      ok: true,
      data: kind === 'sessions' ? { id, revokedAt, revokedTokens: [] } : { id, revokedAt },
    });
    return;
  }
  if (request.method === 'DELETE' && path === '/api/platform/sessions/current') {
    const user = authenticate(request, response);
    if (user === undefined) return;
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    user.failure = 'revoked';
    send(response, 200, {
      ok: true,
      data: { id: `session-${token}`, revokedAt: new Date().toISOString(), revokedTokens: ['tok-1'] },
    });
    return;
  }
  if (request.method === 'GET' && path === '/api/platform/me') {
    const user = authenticate(request, response);
    if (user !== undefined)
      send(response, 200, {
        ok: true,
        data: {
          user: { id: 'u1', email: user.email, name: user.name, isPlatformAdmin: false },
          accounts: [],
        },
      });
    return;
  }
  if (request.method === 'GET' && path === '/api/platform/sources') {
    if (authenticate(request, response) !== undefined)
      send(response, 200, { ok: true, data: { sources: state.seats } });
    return;
  }
  const versionsOf = /^\/api\/platform\/sources\/([^/]+)\/versions$/.exec(path);
  if (versionsOf !== null) {
    const source = decodeURIComponent(versionsOf[1] as string);
    if (authenticate(request, response) === undefined) return;
    if (request.method === 'POST') {
      if (!seatOr403(response, source, ['publisher', 'owner'])) return;
      const listed = await listArchive(body);
      state.uploads.push({
        source,
        contentType: request.headers['content-type'],
        authorization: request.headers.authorization,
        ...listed,
      });
      send(response, 202, {
        ok: true,
        data: {
          submission: { id: 'sub-1' },
          source,
          versions: [{ id: 'ver-3', slug: 'acme-notes', number: 3, status: 'submitted' }],
        },
      });
      return;
    }
    if (!seatOr403(response, source, ['publisher', 'owner', 'viewer'])) return;
    const versions = state.versions.length > 1 ? state.versions.shift() : state.versions[0];
    send(response, 200, { ok: true, data: { source, versions } });
    return;
  }
  const versionOf = /^\/api\/platform\/versions\/([^/]+)$/.exec(path);
  if (request.method === 'GET' && versionOf !== null) {
    if (authenticate(request, response) === undefined) return;
    const id = versionOf[1] as string;
    send(response, 200, { ok: true, data: { version: { id }, findings: state.findings[id] ?? [] } });
    return;
  }
  fail(response, 404, 'not_found', `No route ${request.method} ${path}.`, { hint: 'Check the path.' });
}

beforeAll(async () => {
  server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      fail(response, 500, 'internal_error', String(error), { hint: 'Look at the fake host.' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  state = freshState();
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** A config directory of its own for one test, and a `platform` runner that uses it. */
function cliHome() {
  const config = tempDir('platform-cli-config-');
  const env = cleanEnv({ PLATFORM_CONFIG_DIR: config });
  const hostsFile = join(config, 'platform', 'hosts.json');
  return {
    config,
    hostsFile,
    env,
    platform: (args: string[], cwd = config) => run(args, { cwd, env }),
    hosts: () =>
      JSON.parse(readFileSync(hostsFile, 'utf8')) as {
        current?: string;
        hosts: Record<string, { token: string; kind: string; user: { email: string }; source?: string }>;
      },
    /** Stores a session as `platform login` would. */
    signIn(token = 'cli-alice', extra: { source?: string; host?: string } = {}) {
      const host = extra.host ?? origin;
      mkdirSync(dirname(hostsFile), { recursive: true });
      writeFileSync(
        hostsFile,
        JSON.stringify({
          current: host,
          hosts: {
            [host]: {
              token,
              kind: 'cli',
              user: { email: ALICE.email },
              ...(extra.source === undefined ? {} : { source: extra.source }),
            },
          },
        }),
      );
    },
  };
}

/** A project that passes validate, with files publish must leave out. */
function publishableProject(extra: Record<string, string> = {}, manifestSource?: string): string {
  const dir = tempDir();
  const files = projectFiles({ 'acme-notes': entrySource(`{ slug: 'acme-notes' }`) });
  const manifest = JSON.parse(files['platform.json'] as string) as Record<string, unknown>;
  writeFiles(dir, {
    ...files,
    'platform.json': `${JSON.stringify({ ...manifest, ...(manifestSource === undefined ? {} : { source: manifestSource }) })}\n`,
    'package-lock.json': '{ "name": "fixture", "lockfileVersion": 3, "packages": {} }\n',
    '.gitignore': 'node_modules/\n*.log\n',
    '.env': 'API_KEY=secret\n',
    '.env.local': 'API_KEY=secret\n',
    '.platform/local-secrets.json': '{ "clientSecret": "s3cret" }\n',
    '.platform/shell/index.html': '<!doctype html>\n',
    'dist/integration.js': 'export {};\n',
    'coverage/lcov.info': '\n',
    'debug.log': 'log\n',
    'src/acme-notes/README.md': '# notes\n',
    ...extra,
  });
  linkRepoNodeModules(dir);
  return dir;
}

function version(status: string, checks: [string, string, number?][], extra: Record<string, unknown> = {}) {
  return {
    id: 'ver-3',
    slug: 'acme-notes',
    number: 3,
    source: 'acme-dev',
    status,
    live: status === 'dev',
    createdAt: '2026-05-01T10:00:00.000Z',
    verdictAt: ['dev', 'gated', 'rejected'].includes(status) ? '2026-05-01T10:01:00.000Z' : null,
    submissionId: 'sub-1',
    decision: null,
    checks: checks.map(([name, checkStatus, ms]) => ({
      name,
      status: checkStatus,
      ...(ms === undefined ? {} : { ms }),
    })),
    ...extra,
  };
}

const CHECKS = ['archive', 'install', 'definition.load', 'checks/typecheck'];
const all = (status: string, ms?: number): [string, string, number?][] =>
  CHECKS.map((name) => (ms === undefined ? [name, status] : [name, status, ms]));

// ---------------------------------------------------------------------------------------------
// login
// ---------------------------------------------------------------------------------------------

describe('platform login (device flow)', () => {
  it('prints the URL and code, polls at the interval, slows down when told, and stores the session 0600', async () => {
    const home = cliHome();
    state.deviceInterval = 1;
    state.devicePolls = ['authorization_pending', 'slow_down', 'approve'];
    const result = await home.platform(['login', '--host', `${origin}/`, '--json']);
    const envelope = envelopeOf(result);
    expect(result.code, result.stderr).toBe(0);
    expect(envelope.data).toMatchObject({
      host: origin,
      user: { email: ALICE.email },
      kind: 'cli',
      mfaVerified: false,
      source: null,
      sessionsFile: home.hostsFile,
    });
    // JSON mode: stdout holds the envelope only; the code still reaches the person, on stderr.
    expect(result.stderr).toContain(`${origin}/device?code=BCDF-GHJK`);
    expect(result.stderr).toContain('BCDF-GHJK');

    const [first, second, third] = state.pollTimes as [number, number, number];
    expect(state.pollTimes).toHaveLength(3);
    expect(first - state.deviceCodeAt).toBeGreaterThanOrEqual(950);
    expect(second - first).toBeGreaterThanOrEqual(950);
    // slow_down: the host asked for 2 s between polls.
    expect(third - second).toBeGreaterThanOrEqual(1950);

    expect(home.hosts()).toEqual({
      current: origin,
      hosts: { [origin]: { token: 'cli-alice', kind: 'cli', user: { email: ALICE.email } } },
    });
    expect(statSync(home.hostsFile).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(home.hostsFile)).mode & 0o777).toBe(0o700);
    // Written through a temporary file that was renamed: nothing else is left in the folder.
    expect(readdirSync(dirname(home.hostsFile))).toEqual(['hosts.json']);
  });

  it('says who is signed in where, and keeps the selected source when signing in again', async () => {
    const home = cliHome();
    home.signIn('cli-old', { source: 'acme-dev' });
    const result = await home.platform(['login', '--host', origin]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Signed in to ${origin} as ${ALICE.email} (a CLI session).`);
    expect(result.stdout).toContain('Selected source: acme-dev.');
    expect(result.stderr).toContain('and check that the page shows the code BCDF-GHJK.');
    expect(home.hosts().hosts[origin]).toEqual({
      token: 'cli-alice',
      kind: 'cli',
      user: { email: ALICE.email },
      source: 'acme-dev',
    });
  });

  it('uses the current host without --host, and asks for one when there is none', async () => {
    const home = cliHome();
    const none = await home.platform(['login', '--json']);
    expect(none.code).toBe(2);
    expect(envelopeOf(none).error).toMatchObject({
      code: 'no_host',
      hint: 'Run `platform login --host <url>`, for example `platform login --host https://platform.example.com`.',
    });
    home.signIn('cli-old');
    const again = await home.platform(['login', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(envelopeOf(again).data).toMatchObject({ host: origin });
  });

  it('fails with login_failed when the sign-in is denied', async () => {
    const home = cliHome();
    state.devicePolls = ['authorization_pending', 'access_denied'];
    const result = await home.platform(['login', '--host', origin, '--json']);
    expect(result.code).toBe(1);
    expect(envelopeOf(result).error).toMatchObject({
      code: 'login_failed',
      message: `The sign-in request was denied on ${origin}.`,
    });
    expect(existsSync(home.hostsFile)).toBe(false);
  });

  it('fails with login_failed when the code expires', async () => {
    const home = cliHome();
    state.devicePolls = ['expired_token'];
    const result = await home.platform(['login', '--host', origin, '--json']);
    expect(result.code).toBe(1);
    expect(envelopeOf(result).error?.message).toBe(
      `The sign-in code for ${origin} expired before it was approved.`,
    );
  });

  it('refuses a host that is not an http(s) URL', async () => {
    const result = await cliHome().platform(['login', '--host', 'platform.example.com', '--json']);
    expect(result.code).toBe(2);
    expect(envelopeOf(result).error?.code).toBe('usage');
  });
});

describe('platform login with two-factor authentication', () => {
  function mfaGrant(token: string) {
    state.users[token] = { ...ALICE, mfaPending: true };
    state.grant = { token, mfa_pending: true, user: { id: 'u1', ...ALICE } };
  }

  it('without a terminal and without --mfa-code: stores the pending session and exits 4 saying how to finish', async () => {
    const home = cliHome();
    mfaGrant('cli-mfa');
    const pending = await home.platform(['login', '--host', origin, '--json']);
    expect(pending.code).toBe(4);
    expect(envelopeOf(pending).error).toEqual({
      code: 'auth_required',
      message: `Signed in to ${origin} as ${ALICE.email}, but the account uses an authenticator app: the session waits for a code.`,
      hint: `Enter your authenticator code: \`platform login --host ${origin} --mfa-code <code>\`.`,
    });
    expect(home.hosts().hosts[origin]?.token).toBe('cli-mfa');

    // Until then, the host refuses the session with its own hint, exit 4.
    const sources = await home.platform(['sources', '--json']);
    expect(sources.code).toBe(4);
    expect(envelopeOf(sources).error?.hint).toBe(
      `Enter your authenticator code: \`platform login --host ${origin} --mfa-code <code>\`.`,
    );

    const wrong = await home.platform(['login', '--host', origin, '--mfa-code', '000000', '--json']);
    expect(wrong.code).toBe(4);
    expect(envelopeOf(wrong).error).toMatchObject({
      code: 'auth_required',
      message: `${origin} did not accept the authenticator code: The authenticator code is wrong or out of date.`,
    });

    const right = await home.platform(['login', '--host', origin, '--mfa-code', '123456', '--json']);
    expect(right.code, right.stderr).toBe(0);
    expect(envelopeOf(right).data).toMatchObject({ kind: 'cli', mfaVerified: true });
    // The stored session was completed: no second device sign-in.
    expect(state.requests.filter((line) => line.endsWith('/device/code'))).toHaveLength(1);
    expect(state.users['cli-mfa']?.mfaPending).toBe(false);
  });

  it('with --mfa-code up front: signs in with the device flow and verifies the code', async () => {
    const home = cliHome();
    mfaGrant('cli-mfa-2');
    const result = await home.platform(['login', '--host', origin, '--mfa-code', '123456', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(envelopeOf(result).data).toMatchObject({ mfaVerified: true, user: { email: ALICE.email } });
    expect(state.requests).toContain('POST /api/platform/mfa/verify');
    expect(state.users['cli-mfa-2']?.mfaPending).toBe(false);
  });
});

describe('platform login --token', () => {
  it('checks the token with /me and stores it as kind token', async () => {
    const home = cliHome();
    const result = await home.platform(['login', '--host', origin, '--token', 'pat-alice', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(envelopeOf(result).data).toMatchObject({
      host: origin,
      kind: 'token',
      user: { email: ALICE.email },
    });
    expect(state.requests).toEqual(['GET /api/platform/me']);
    expect(home.hosts().hosts[origin]).toEqual({
      token: 'pat-alice',
      kind: 'token',
      user: { email: ALICE.email },
    });
    expect(statSync(home.hostsFile).mode & 0o777).toBe(0o600);
  });

  it('reads the token from stdin with --token-stdin', async () => {
    const home = cliHome();
    const result = await run(
      [
        '-c',
        `printf 'pat-alice\\n' | "${process.execPath}" "${CLI_BIN}" login --host ${origin} --token-stdin --json`,
      ],
      { cwd: home.config, env: home.env, command: 'sh' },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(home.hosts().hosts[origin]?.token).toBe('pat-alice');
  });

  it('refuses a token the host does not know with exit 4, storing nothing', async () => {
    const home = cliHome();
    const result = await home.platform(['login', '--host', origin, '--token', 'pat-nobody', '--json']);
    expect(result.code).toBe(4);
    expect(envelopeOf(result).error).toMatchObject({
      code: 'auth_required',
      message: `${origin} refused the token: ${origin} does not know this credential.`,
    });
    expect(existsSync(home.hostsFile)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// use and sources
// ---------------------------------------------------------------------------------------------

describe('platform logout', () => {
  it('ends the CLI session on the host, with the tokens it minted, then forgets it here', async () => {
    const home = cliHome();
    home.signIn();
    const result = await home.platform(['logout', '--json']);
    expect(result.code).toBe(0);
    expect(envelopeOf(result)).toMatchObject({
      ok: true,
      data: { host: origin, kind: 'cli', onHost: 'revoked', revokedTokens: ['tok-1'] },
    });
    expect(state.requests).toContain('DELETE /api/platform/sessions/current');
    expect(home.hosts().hosts[origin]).toBeUndefined();
    expect(home.hosts().current).toBeUndefined();
    // Signed out: the next command says so.
    expect((await home.platform(['sources', '--json'])).code).toBe(4);
  });

  it('forgets a session the host had already ended, and only forgets a personal access token', async () => {
    const ended = cliHome();
    ended.signIn();
    state.users['cli-alice']!.failure = 'expired';
    const result = await ended.platform(['logout', '--json']);
    expect(result.code).toBe(0);
    expect(envelopeOf(result)).toMatchObject({ data: { onHost: 'already_ended' } });
    expect(ended.hosts().hosts[origin]).toBeUndefined();

    const pat = cliHome();
    pat.signIn('pat-alice');
    const stored = pat.hosts();
    writeFileSync(
      pat.hostsFile,
      JSON.stringify({ ...stored, hosts: { [origin]: { ...stored.hosts[origin], kind: 'token' } } }),
    );
    state.requests = [];
    const forgotten = await pat.platform(['logout']);
    expect(forgotten.code).toBe(0);
    expect(forgotten.stdout).toContain('removed here only');
    expect(state.requests.filter((line) => line.startsWith('DELETE'))).toEqual([]);
    expect(pat.hosts().hosts[origin]).toBeUndefined();
  });

  it('keeps the session when the host cannot be reached, and needs a session to sign out of', async () => {
    const home = cliHome();
    home.signIn('cli-alice', { host: 'http://127.0.0.1:9' });
    const unreachable = await home.platform(['logout', '--json']);
    expect(unreachable.code).toBe(1);
    expect(home.hosts().hosts['http://127.0.0.1:9']).toBeDefined();
    const nobody = cliHome();
    expect((await nobody.platform(['logout', '--json'])).code).toBe(4);
  });
});

describe('platform sessions', () => {
  it('lists sessions and tokens with their last use, and revokes one by id', async () => {
    const home = cliHome();
    home.signIn();
    const listed = await home.platform(['sessions', '--json']);
    expect(listed.code).toBe(0);
    expect(envelopeOf(listed)).toMatchObject({
      data: {
        host: origin,
        sessions: [{ id: 'cli-1', current: true }, { id: 'web-1' }],
        tokens: [{ id: 'tok-ci' }],
      },
    });
    const text = await home.platform(['sessions']);
    expect(text.stdout).toContain('last used 2026-12-07 09:00 from 127.0.0.1');
    const revoked = await home.platform(['sessions', '--revoke', 'tok-ci', '--json']);
    expect(envelopeOf(revoked)).toMatchObject({
      data: { revoked: { kind: 'token', id: 'tok-ci' }, tokens: [] },
    });
    expect(state.requests).toContain('DELETE /api/platform/tokens/tok-ci');
    const browser = await home.platform(['sessions', '--revoke', 'web-1', '--json']);
    expect(envelopeOf(browser)).toMatchObject({ data: { revoked: { kind: 'session', id: 'web-1' } } });
  });

  it('refuses an unknown id and the current session (logout ends that one)', async () => {
    const home = cliHome();
    home.signIn();
    const unknown = await home.platform(['sessions', '--revoke', 'nope', '--json']);
    expect(unknown.code).toBe(2);
    const current = await home.platform(['sessions', '--revoke', 'cli-1', '--json']);
    expect(current.code).toBe(2);
    expect(envelopeOf(current).error?.hint).toContain('platform logout');
    expect(state.requests.filter((line) => line.startsWith('DELETE'))).toEqual([]);
  });

  it("reads the host's answer with the wire schema: another shape is host_error naming the field", async () => {
    const home = cliHome();
    home.signIn();
    state.sessionsAnswer = { sessions: [{ id: 7 }] };
    const result = await home.platform(['sessions', '--json']);
    expect(result.code).toBe(1);
    expect(envelopeOf(result).error).toMatchObject({ code: 'host_error' });
    expect(envelopeOf(result).error?.message).toContain('sessions.0.id');
  });
});

describe('platform use and platform sources', () => {
  it('lists the seats, selects one, and marks it', async () => {
    const home = cliHome();
    home.signIn();
    const before = await home.platform(['sources', '--json']);
    expect(before.code).toBe(0);
    expect(envelopeOf(before).data).toEqual({
      host: origin,
      user: ALICE.email,
      selected: null,
      sources: SEATS.map((seat) => ({ ...seat, selected: false })),
    });

    const used = await home.platform(['use', 'acme-dev', '--json']);
    expect(used.code, used.stderr).toBe(0);
    expect(envelopeOf(used).data).toEqual({ host: origin, source: SEATS[1] });
    expect(home.hosts().hosts[origin]?.source).toBe('acme-dev');

    const after = await home.platform(['sources']);
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/^\* acme-dev +development +publisher/m);
    expect(after.stdout).toMatch(/^ {2}acme +production +viewer/m);
  });

  it('refuses a source without a seat (exit 5), listing the seats', async () => {
    const home = cliHome();
    home.signIn();
    const result = await home.platform(['use', 'globex', '--json']);
    expect(result.code).toBe(5);
    expect(envelopeOf(result).error).toEqual({
      code: 'forbidden',
      message: `You hold no seat on a source "globex" at ${origin}.`,
      hint: 'Your seats: acme (viewer), acme-dev (publisher). Run `platform use <slug>` with one of them, or ask an owner of globex for a seat.',
    });
  });

  it('needs exactly one slug', async () => {
    const result = await cliHome().platform(['use', '--json']);
    expect(result.code).toBe(2);
    expect(envelopeOf(result).error?.code).toBe('usage');
  });
});

// ---------------------------------------------------------------------------------------------
// Errors shared by every host command
// ---------------------------------------------------------------------------------------------

describe('host errors', () => {
  it('auth_required (exit 4) with no session stored at all', async () => {
    const result = await cliHome().platform(['sources', '--json']);
    expect(result.code).toBe(4);
    expect(envelopeOf(result).error).toEqual({
      code: 'auth_required',
      message: 'Not signed in to any Platform host.',
      hint: 'Run `platform login --host <url>`.',
    });
    expect(state.requests).toEqual([]);
  });

  it('auth_required (exit 4) with no session for the --host given', async () => {
    const home = cliHome();
    home.signIn();
    const result = await home.platform(['sources', '--host', 'https://other.example', '--json']);
    expect(result.code).toBe(4);
    expect(envelopeOf(result).error?.hint).toBe('Run `platform login --host https://other.example`.');
  });

  it('auth_required (exit 4) when the host says the session expired, keeping its hint', async () => {
    const home = cliHome();
    state.users['cli-expired'] = { ...ALICE, failure: 'expired' };
    home.signIn('cli-expired');
    const result = await home.platform(['status', '--source', 'acme-dev', '--json']);
    expect(result.code).toBe(4);
    expect(envelopeOf(result).error).toEqual({
      code: 'auth_required',
      message: `Your sign-in to ${origin} expired.`,
      hint: `Run \`platform login --host ${origin}\`.`,
    });
    const human = await home.platform(['status', '--source', 'acme-dev']);
    expect(human.stderr).toContain('Error [auth_required]');
    expect(human.stderr).toContain(`Hint: Run \`platform login --host ${origin}\`.`);
  });

  it('host_error (exit 1) when the host redirects, naming where to sign in instead', async () => {
    const home = cliHome();
    home.signIn();
    state.answerInstead = 'redirect';
    const result = await home.platform(['sources', '--json']);
    expect(result.code).toBe(1);
    expect(envelopeOf(result).error).toEqual({
      code: 'host_error',
      message: `${origin} answered 308, redirecting to https://secure.example.`,
      hint: 'Sign in with the address the host redirects to: `platform login --host https://secure.example`.',
    });
    // The upload path says the same, and sends nothing on.
    const publish = await home.platform(['publish', '--source', 'acme-dev', '--json'], publishableProject());
    expect(envelopeOf(publish).error?.message).toBe(
      `${origin} answered 308, redirecting to https://secure.example.`,
    );
  });

  it('host_error (exit 1) when the address answers something other than the Platform API', async () => {
    const home = cliHome();
    home.signIn();
    state.answerInstead = 'html';
    const result = await home.platform(['sources', '--json']);
    expect(result.code).toBe(1);
    expect(envelopeOf(result).error).toMatchObject({
      code: 'host_error',
      message: `${origin} answered 200 without a Platform JSON envelope; it may not be a Platform host.`,
    });
  });

  it('host_unreachable (exit 1) naming the host when nothing listens there', async () => {
    const home = cliHome();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const dead = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    home.signIn('cli-alice', { host: dead });
    const result = await home.platform(['sources', '--json']);
    expect(result.code).toBe(1);
    expect(envelopeOf(result).error).toEqual({
      code: 'host_unreachable',
      message: `Cannot reach the Platform host ${dead} (ECONNREFUSED).`,
      hint: `Check that the host is running and that ${dead} is its address (sign in to another with \`platform login --host <url>\`), then run the command again.`,
    });
  });
});

// ---------------------------------------------------------------------------------------------
// publish
// ---------------------------------------------------------------------------------------------

describe('platform publish', () => {
  it('uploads a gzipped tar of the project files only and prints the submitted versions', async () => {
    const home = cliHome();
    home.signIn('cli-alice', { source: 'acme-dev' });
    const dir = publishableProject();
    const result = await home.platform(['publish', '--json'], dir);
    const envelope = envelopeOf(result);
    expect(result.code, result.stderr).toBe(0);
    expect(envelope.data).toMatchObject({
      host: origin,
      source: { slug: 'acme-dev', from: 'selection' },
      findings: [],
      submission: { id: 'sub-1' },
      versions: [{ id: 'ver-3', slug: 'acme-notes', number: 3, status: 'submitted' }],
      next: 'platform status --watch',
    });

    expect(state.uploads).toHaveLength(1);
    const upload = state.uploads[0] as Upload;
    expect(upload.source).toBe('acme-dev');
    expect(upload.contentType).toBe('application/gzip');
    expect(upload.authorization).toBe('Bearer cli-alice');
    expect([...upload.entries].sort()).toEqual([
      '.gitignore',
      'package-lock.json',
      'package.json',
      'platform.json',
      'src/acme-notes/README.md',
      'src/acme-notes/integration.ts',
      'tsconfig.json',
    ]);
    expect(upload.manifest).toContain('"acme-notes"');
    expect(envelope.data.archive).toMatchObject({ files: 7, omitted: [] });
  });

  it('prints "<slug> v<n> submitted" and the status hint in human mode', async () => {
    const home = cliHome();
    home.signIn();
    const dir = publishableProject({}, 'acme-dev');
    const result = await home.platform(['publish'], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('acme-notes v3 submitted');
    expect(result.stdout).toContain('Next: platform status --watch');
    expect(result.stderr).toContain(`Uploading`);
    expect(state.uploads[0]?.source).toBe('acme-dev');
  });

  it('targets --source over the use selection over platform.json', async () => {
    const home = cliHome();
    state.seats = [...SEATS, { slug: 'acme-lab', name: 'Lab', stage: 'development', role: 'owner' }];
    home.signIn('cli-alice', { source: 'acme-lab' });
    const dir = publishableProject({}, 'acme-dev');
    const selected = await home.platform(['publish', '--json'], dir);
    expect(selected.code, selected.stderr).toBe(0);
    const explicit = await home.platform(['publish', '--source', 'acme-dev', '--json'], dir);
    expect(explicit.code, explicit.stderr).toBe(0);
    expect(envelopeOf(explicit).data.next).toBe('platform status --watch --source acme-dev');
    expect(state.uploads.map((upload) => upload.source)).toEqual(['acme-lab', 'acme-dev']);
  });

  it('refuses with no_source (exit 2) when nothing names a source', async () => {
    const home = cliHome();
    home.signIn();
    const result = await home.platform(['publish', '--json'], publishableProject());
    expect(result.code).toBe(2);
    expect(envelopeOf(result).error).toMatchObject({
      code: 'no_source',
      hint: 'Pass --source <slug>, or run `platform use <slug>` once (`platform sources` lists yours), or set "source" in platform.json.',
    });
  });

  it('refuses with gate_failed (exit 10) on project.host-compiler-rules, uploading nothing', async () => {
    const home = cliHome();
    home.signIn('cli-alice', { source: 'acme-dev' });
    const dir = publishableProject({ 'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n' });
    const result = await home.platform(['publish', '--json'], dir);
    expect(result.code).toBe(10);
    const envelope = envelopeOf(result);
    expect(envelope.error).toEqual({
      code: 'gate_failed',
      message: 'Not published: 1 error finding (project.host-compiler-rules).',
      hint: 'Fix the error findings listed in data.findings, then run `platform publish` again.',
    });
    expect(envelope.data.findings).toEqual([
      expect.objectContaining({
        id: 'project.host-compiler-rules',
        severity: 'error',
        path: 'tsconfig.json',
      }),
    ]);
    expect(envelope.data.submission).toBeNull();
    expect(state.uploads).toEqual([]);

    const human = await home.platform(['publish'], dir);
    expect(human.code).toBe(10);
    expect(human.stdout).toContain('project.host-compiler-rules');
    expect(human.stderr).toContain('Error [gate_failed]');
  });

  it('refuses with gate_failed (exit 10) on an error finding of validate', async () => {
    const home = cliHome();
    home.signIn('cli-alice', { source: 'acme-dev' });
    const dir = publishableProject({ 'src/acme-notes/integration.ts': entrySource(`{ slug: 'acme-note' }`) });
    const result = await home.platform(['publish', '--json'], dir);
    expect(result.code).toBe(10);
    expect(envelopeOf(result).error?.message).toBe(
      'Not published: 1 error finding (project.slug-agreement).',
    );
    expect(state.uploads).toEqual([]);
  });

  it('refuses with precondition_failed (exit 9) on schema skew before loading any definition', async () => {
    const home = cliHome();
    home.signIn('cli-alice', { source: 'acme-dev' });
    const dir = tempDir();
    const marking = `import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('../../loaded.marker', import.meta.url), '');\nexport default { slug: 'acme-notes' };\n`;
    writeFiles(dir, {
      ...projectFiles({ 'acme-notes': marking }),
      'package-lock.json': '{}\n',
      'node_modules/@platform/integration-schema/package.json':
        '{ "name": "@platform/integration-schema", "version": "0.6.0" }',
    });
    const result = await home.platform(['publish', '--json'], dir);
    expect(result.code).toBe(9);
    expect(envelopeOf(result).error).toMatchObject({
      code: 'precondition_failed',
      message: expect.stringContaining('is 0.6.0, newer than the 0.5.0'),
    });
    expect(existsSync(join(dir, 'loaded.marker'))).toBe(false);
    expect(state.requests).toEqual([]);
  });

  it('refuses without package-lock.json, saying to run npm install', async () => {
    const home = cliHome();
    home.signIn('cli-alice', { source: 'acme-dev' });
    const dir = publishableProject();
    const { rmSync } = await import('node:fs');
    rmSync(join(dir, 'package-lock.json'));
    const result = await home.platform(['publish', '--json'], dir);
    expect(result.code).toBe(1);
    expect(envelopeOf(result).error).toMatchObject({
      code: 'lockfile_missing',
      hint: 'Run `npm install` in the project to write package-lock.json, then run the command again.',
    });
    expect(state.uploads).toEqual([]);
  });

  it('forbidden (exit 5) on a source without a publisher seat, with the host hint listing the seats', async () => {
    const home = cliHome();
    home.signIn();
    const result = await home.platform(['publish', '--source', 'acme', '--json'], publishableProject());
    expect(result.code).toBe(5);
    expect(envelopeOf(result).error).toEqual({
      code: 'forbidden',
      message: 'You need a publisher or owner seat on source "acme".',
      hint: 'Your seats: acme (viewer), acme-dev (publisher). Ask an owner of "acme" for a publisher seat, or pick a source you publish to with `platform use <source-slug>`.',
    });
  });
});

// ---------------------------------------------------------------------------------------------
// status
// ---------------------------------------------------------------------------------------------

describe('platform status', () => {
  it('shows the latest submission; --all and --findings ask the host for more', async () => {
    const home = cliHome();
    home.signIn('cli-alice', { source: 'acme-dev' });
    state.versions = [[version('dev', all('passed', 100))]];
    state.findings['ver-3'] = [
      { check: 'checks/tests', severity: 'warning', code: 'slow_test', message: 'A test took 4 s.' },
    ];
    const latest = await home.platform(['status', '--json']);
    expect(latest.code).toBe(0);
    expect(envelopeOf(latest).data).toEqual({
      host: origin,
      source: { slug: 'acme-dev', from: 'selection' },
      scope: 'latest',
      versions: [version('dev', all('passed', 100))],
    });
    const more = await home.platform(['status', '--all', '--findings', '--json']);
    expect(envelopeOf(more).data.versions[0].findings).toEqual(state.findings['ver-3']);
    expect(state.requests).toContain('GET /api/platform/sources/acme-dev/versions?all=1');
    expect(state.requests).toContain('GET /api/platform/versions/ver-3');

    const human = await home.platform(['status', '--findings']);
    expect(human.stdout).toContain('acme-notes v3  dev  live');
    expect(human.stdout).toContain('✓ checks/typecheck passed (0.1 s)');
    expect(human.stdout).toContain('A test took 4 s.');
  });

  it('--watch prints a line per check as it starts and ends, and exits 0 on dev', async () => {
    const home = cliHome();
    home.signIn('cli-alice', { source: 'acme-dev' });
    state.versions = [
      [
        version('checking', [
          ['archive', 'running'],
          ['install', 'pending'],
          ['definition.load', 'pending'],
          ['checks/typecheck', 'pending'],
        ]),
      ],
      [
        version('checking', [
          ['archive', 'passed', 120],
          ['install', 'running'],
          ['definition.load', 'pending'],
          ['checks/typecheck', 'pending'],
        ]),
      ],
      [version('dev', all('passed', 120))],
    ];
    const result = await home.platform(['status', '--watch']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      'acme-notes v3  … archive running',
      'acme-notes v3  ✓ archive passed (0.1 s)',
      'acme-notes v3  … install running',
      'acme-notes v3  ✓ install passed (0.1 s)',
      'acme-notes v3  ✓ definition.load passed (0.1 s)',
      'acme-notes v3  ✓ checks/typecheck passed (0.1 s)',
    ]);
    expect(result.stdout).toContain('acme-notes v3  dev  live');
  });

  it('--watch exits 10 with the findings when the gate rejects the version', async () => {
    const home = cliHome();
    home.signIn('cli-alice', { source: 'acme-dev' });
    const rejected = version('rejected', [
      ['archive', 'passed', 10],
      ['install', 'passed', 10],
      ['definition.load', 'passed', 10],
      ['checks/typecheck', 'failed', 10],
    ]);
    state.versions = [[version('checking', all('pending'))], [rejected]];
    state.findings['ver-3'] = [
      {
        check: 'checks/typecheck',
        severity: 'error',
        code: 'TS2532',
        message: "Object is possibly 'undefined'.",
        file: 'src/acme-notes/integration.ts',
        line: 12,
        hint: 'Check the value before using it.',
      },
    ];
    const human = await home.platform(['status', '--watch']);
    expect(human.code).toBe(10);
    expect(human.stderr).toContain('acme-notes v3  ✗ checks/typecheck failed');
    expect(human.stdout).toContain("Object is possibly 'undefined'.");
    expect(human.stdout).toContain('src/acme-notes/integration.ts:12');
    expect(human.stderr).toContain('Error [gate_failed] The gate rejected acme-notes v3.');
    expect(human.stderr).toContain('Hint: Fix the findings listed above, then run `platform publish` again.');

    // JSON mode prints only the final envelope.
    state.versions = [[version('checking', all('running'))], [rejected]];
    const json = await home.platform(['status', '--watch', '--json']);
    expect(json.code).toBe(10);
    const envelope = envelopeOf(json);
    expect(envelope.error?.code).toBe('gate_failed');
    expect(envelope.data.versions[0].findings).toEqual(state.findings['ver-3']);
    expect(json.stderr).toBe('');
  });

  it('--watch fails with a hint when the source has no versions yet', async () => {
    const home = cliHome();
    home.signIn('cli-alice', { source: 'acme-dev' });
    const result = await home.platform(['status', '--watch', '--json']);
    expect(result.code).toBe(1);
    expect(envelopeOf(result).error).toMatchObject({
      code: 'version_not_found',
      hint: 'Run `platform publish` in the project first, then `platform status --watch`.',
    });
  });
});
