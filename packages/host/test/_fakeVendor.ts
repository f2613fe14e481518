import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loopbackCertificate } from '../../sdk/test/_tls.js';

/** One request the fake vendor answered. */
export interface VendorRequest {
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  readonly userAgent: string | undefined;
  readonly status: number;
}

/** A failure answered once, instead of the real answer, to the next request it matches. */
export interface PlannedFault {
  readonly method: string;
  /** Matched against the path and query, e.g. `/issues?` + `page=2`. */
  readonly match: RegExp;
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

export interface FakeIssue {
  readonly number: number;
  readonly title: string;
  readonly body: string | null;
  readonly state: 'open' | 'closed';
  readonly html_url: string;
}

export interface FakeCandidate {
  readonly id: string;
  readonly name: string;
  readonly stage: string;
}

/** An OAuth app registered at the fake GitHub. */
export interface FakeOAuthApp {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface FakeVendor {
  /** `https://127.0.0.1:<port>`: GitHub's API and web paths, and Workable's `/spi/v3`, on one origin. */
  readonly origin: string;
  /** The PEM certificate it presents (self-signed: its own CA). */
  readonly ca: string;
  /** Every answered request, in order. */
  readonly requests: VendorRequest[];
  /** Failures to answer once each, in order of planning; each is used up by the first request it matches. */
  readonly faults: PlannedFault[];
  readonly github: {
    readonly app: FakeOAuthApp;
    /** Issues per `owner/repo`. */
    readonly issues: Map<string, FakeIssue[]>;
    /** Adds `count` issues to a repository. */
    seed(repo: string, count: number): void;
    /**
     * The user approves at GitHub: reads the authorization URL the host redirected to and answers
     * the callback URL GitHub sends the browser back to (with a code the token endpoint accepts).
     */
    approve(authorizationUrl: string): string;
    /** The access tokens the token endpoint issued. */
    readonly tokens: string[];
  };
  readonly workable: {
    /** The API token (`Authorization: Bearer`) it accepts. */
    readonly token: string;
    readonly candidates: FakeCandidate[];
    seed(count: number): void;
  };
  close(): Promise<void>;
}

// Real GitHub's answer to an API request without a User-Agent.
const NO_USER_AGENT =
  'Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required). Check https://developer.github.com for other possible causes.';

/**
 * A fake GitHub and Workable on a loopback HTTPS port, for the ports' end-to-end tests. GitHub:
 * 403 without `User-Agent`, 401 without a token it issued, issues listed with `Link` pagination,
 * `POST .../issues` answering 422 `Validation Failed` for a blank title, and the OAuth web flow.
 * Workable: candidates with `since_id` cursor pagination (`paging.next`, inclusive as Workable's).
 * `faults` answers planned 429/502/503s once each.
 * @example const vendor = await startFakeVendor(); vendor.github.seed('acme/app', 12); ...; await vendor.close();
 */
export async function startFakeVendor(): Promise<FakeVendor> {
  const { key, cert } = await loopbackCertificate();
  const requests: VendorRequest[] = [];
  const faults: PlannedFault[] = [];
  const app: FakeOAuthApp = { clientId: 'Iv1.fake-client', clientSecret: randomBytes(16).toString('hex') };
  const codes = new Map<string, string>();
  const tokens: string[] = [];
  const issues = new Map<string, FakeIssue[]>();
  const workableToken = `wk_${randomBytes(12).toString('hex')}`;
  const candidates: FakeCandidate[] = [];
  let origin = '';

  const send = (
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      userAgent: request.headers['user-agent'],
      status,
    });
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(body === undefined ? '' : JSON.stringify(body));
  };

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', origin);
    const method = request.method ?? 'GET';
    const reply = (status: number, body: unknown, headers?: Record<string, string>) =>
      send(request, response, status, body, headers);

    const fault = faults.findIndex(
      (f) => f.method === method && f.match.test(`${url.pathname}${url.search}`),
    );
    if (fault >= 0) {
      const [planned] = faults.splice(fault, 1);
      return reply(planned!.status, planned!.body ?? { message: `planned ${planned!.status}` }, {
        ...planned!.headers,
      });
    }

    // GitHub's web side: the OAuth token endpoint (no User-Agent rule there).
    if (method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = new URLSearchParams(raw);
      const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const [id, secret] = basic
        ? Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent)
        : [form.get('client_id'), form.get('client_secret')];
      const code = form.get('code') ?? '';
      if (id !== app.clientId || secret !== app.clientSecret || !codes.has(code)) {
        return reply(200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect or expired.',
        });
      }
      codes.delete(code);
      const token = `gho_${randomBytes(12).toString('hex')}`;
      tokens.push(token);
      return reply(200, { access_token: token, token_type: 'bearer', scope: 'repo' });
    }

    if (url.pathname.startsWith('/spi/v3/')) {
      if (request.headers.authorization !== `Bearer ${workableToken}`) {
        return reply(401, { error: 'Not authorized' });
      }
      if (method === 'GET' && url.pathname === '/spi/v3/candidates') {
        const limit = Number(url.searchParams.get('limit') ?? '50');
        const since = url.searchParams.get('since_id');
        const sorted = [...candidates].sort((a, b) => a.id.localeCompare(b.id));
        const from = since === null ? sorted : sorted.filter((candidate) => candidate.id >= since);
        const page = from.slice(0, limit);
        const next = from[limit];
        return reply(200, {
          candidates: page,
          ...(next === undefined
            ? {}
            : { paging: { next: `${origin}/spi/v3/candidates?limit=${limit}&since_id=${next.id}` } }),
        });
      }
      return reply(404, { error: 'Not found' });
    }

    // GitHub's API.
    if (request.headers['user-agent'] === undefined) return reply(403, { message: NO_USER_AGENT });
    const token = /^(?:Bearer|token) (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (token === undefined || !tokens.includes(token)) {
      return reply(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    }
    const repoIssues = /^\/repos\/([\w.-]+)\/([\w.-]+)\/issues$/.exec(url.pathname);
    if (repoIssues === null) return reply(404, { message: 'Not Found' });
    const repo = `${repoIssues[1]}/${repoIssues[2]}`;
    const list = issues.get(repo) ?? [];
    if (method === 'POST') {
      const input = JSON.parse(raw || '{}') as { title?: unknown; body?: unknown };
      if (typeof input.title !== 'string' || input.title.trim() === '') {
        return reply(422, {
          message: 'Validation Failed',
          errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
          documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue',
        });
      }
      const issue: FakeIssue = {
        number: list.length + 1,
        title: input.title,
        body: typeof input.body === 'string' ? input.body : null,
        state: 'open',
        html_url: `https://github.com/${repo}/issues/${list.length + 1}`,
      };
      issues.set(repo, [...list, issue]);
      return reply(201, issue);
    }
    if (method === 'GET') {
      const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? '30'));
      const page = Number(url.searchParams.get('page') ?? '1');
      const last = Math.max(1, Math.ceil(list.length / perPage));
      const link = (n: number, rel: string) => {
        const target = new URL(url);
        target.searchParams.set('page', String(n));
        return `<${target.href}>; rel="${rel}"`;
      };
      const links = [
        ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
        ...(page > 1 ? [link(1, 'first')] : []),
      ];
      return reply(
        200,
        list.slice((page - 1) * perPage, page * perPage),
        links.length === 0 ? {} : { link: links.join(', ') },
      );
    }
    return reply(404, { message: 'Not Found' });
  }

  const server = createServer({ key, cert }, (request, response) => {
    answer(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(request, response, 500, { message: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    ca: cert,
    requests,
    faults,
    github: {
      app,
      issues,
      tokens,
      seed(repo, count) {
        const list = issues.get(repo) ?? [];
        for (let index = 0; index < count; index++) {
          const number = list.length + 1;
          list.push({
            number,
            title: `Seeded issue ${number}`,
            body: null,
            state: number % 3 === 0 ? 'closed' : 'open',
            html_url: `https://github.com/${repo}/issues/${number}`,
          });
        }
        issues.set(repo, list);
      },
      approve(authorizationUrl) {
        const authorize = new URL(authorizationUrl);
        if (`${authorize.origin}${authorize.pathname}` !== `${origin}/login/oauth/authorize`) {
          throw new Error(`not this GitHub's authorization endpoint: ${authorizationUrl}`);
        }
        if (authorize.searchParams.get('client_id') !== app.clientId) {
          throw new Error(`unknown client_id ${authorize.searchParams.get('client_id')}`);
        }
        const code = randomBytes(10).toString('hex');
        codes.set(code, authorize.searchParams.get('state') ?? '');
        const callback = new URL(authorize.searchParams.get('redirect_uri') ?? '');
        callback.searchParams.set('code', code);
        callback.searchParams.set('state', authorize.searchParams.get('state') ?? '');
        return callback.href;
      },
    },
    workable: {
      token: workableToken,
      candidates,
      seed(count) {
        for (let index = 0; index < count; index++) {
          const id = `c${String(candidates.length + 1).padStart(3, '0')}`;
          candidates.push({ id, name: `Candidate ${id}`, stage: 'applied' });
        }
      },
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Workable's webhook signature: hex HMAC-SHA256 of the raw body with the subscription's secret,
 * sent as `X-Workable-Signature`.
 * @example headers['X-Workable-Signature'] = signWorkable(body, secret);
 */
export function signWorkable(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
