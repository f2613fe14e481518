// What the host commands do on a terminal, which a subprocess with pipes never is: the device
// flow's timing, the authenticator prompt, the live check lines and the upload bar.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStyle } from '../src/cli/terminal.js';
import { deviceSignIn } from '../src/commands/login/deviceSignIn.js';
import { loginToHost } from '../src/commands/login/loginToHost.js';
import { createCheckLines } from '../src/commands/status/checkLines.js';
import { createByteProgress } from '../src/host/byteProgress.js';
import type { HostAnswer, HostClient } from '../src/host/createHostClient.js';
import type { HostIO } from '../src/host/hostIO.js';
import type { VersionView } from '../src/host/hostTypes.js';
import { readHosts } from '../src/host/sessionStore.js';
import { tempDirectories } from './_helpers.js';

const tempDir = tempDirectories();
const plain = createStyle(false);

/** A terminal that records what is written to it. */
function terminal(): { isTTY: true; text: string; write(text: string): boolean } {
  return {
    isTTY: true,
    text: '',
    write(text: string) {
      this.text += text;
      return true;
    },
  };
}

describe('deviceSignIn', () => {
  function scriptedClient(answers: HostAnswer[]): HostClient & { polls: number } {
    const client = {
      origin: 'https://platform.example.com',
      polls: 0,
      async call(): Promise<HostAnswer> {
        client.polls += 1;
        return answers.shift() as HostAnswer;
      },
      async request<T>(): Promise<T> {
        return {
          device_code: 'dc',
          user_code: 'BCDF-GHJK',
          verification_uri: 'https://platform.example.com/device',
          interval: 2,
          expires_in: 600,
        } as T;
      },
      async upload<T>(): Promise<T> {
        throw new Error('not used');
      },
    };
    return client;
  }
  const error = (code: string, extra = {}): HostAnswer => ({
    ok: false,
    status: 400,
    error: { code, message: code, ...extra },
  });

  it('waits the interval before each poll and 5 s longer after slow_down (RFC 8628)', async () => {
    const slept: number[] = [];
    let clock = 0;
    const client = scriptedClient([
      error('authorization_pending'),
      error('slow_down'),
      error('authorization_pending'),
      {
        ok: true,
        status: 200,
        data: {
          token: 't',
          token_type: 'Bearer',
          expires_at: '2099-01-01T00:00:00.000Z',
          mfa_pending: false,
          user: { id: 'u1', email: 'a@b.c', name: 'A' },
        },
      },
    ]);
    const shown: string[] = [];
    const grant = await deviceSignIn(client, {
      onCode: (code) => shown.push(code.user_code),
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
      },
      now: () => clock,
    });
    expect(grant.token).toBe('t');
    expect(shown).toEqual(['BCDF-GHJK']);
    expect(slept).toEqual([2000, 2000, 7000, 7000]);
  });

  it('gives up when the code expires without an answer', async () => {
    let clock = 0;
    const client = scriptedClient(Array.from({ length: 1000 }, () => error('authorization_pending')));
    await expect(
      deviceSignIn(client, {
        onCode: () => {},
        sleep: async (ms) => {
          clock += ms;
        },
        now: () => clock,
      }),
    ).rejects.toMatchObject({ code: 'login_failed' });
    expect(client.polls).toBe(300);
  });
});

describe('loginToHost on a terminal', () => {
  let server: Server;
  let origin: string;
  let pending = true;

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { code?: string };
      const reply = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (request.url === '/api/platform/device/code') {
        reply(200, {
          ok: true,
          data: {
            device_code: 'dc',
            user_code: 'BCDF-GHJK',
            verification_uri: `${origin}/device`,
            verification_uri_complete: `${origin}/device?code=BCDF-GHJK`,
            interval: 0,
            expires_in: 600,
          },
        });
      } else if (request.url === '/api/platform/device/token') {
        reply(200, {
          ok: true,
          data: {
            token: 'cli-t',
            token_type: 'Bearer',
            expires_at: '2099-01-01T00:00:00.000Z',
            mfa_pending: true,
            user: { id: 'u1', email: 'a@acme.example', name: 'A' },
          },
        });
      } else if (request.url === '/api/platform/mfa/verify' && body.code === '123456') {
        pending = false;
        reply(200, { ok: true, data: { mfa_pending: false } });
      } else {
        reply(401, {
          ok: false,
          error: {
            code: 'auth_required',
            reason: 'mfa_invalid',
            message: 'Wrong code.',
            hint: 'Enter the current code.',
          },
        });
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('asks for the authenticator code until one is accepted', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const answers = ['000000', '123456'];
    const stderr = {
      isTTY: true,
      text: '',
      write(text: string) {
        stderr.text += text;
        // Answer each prompt as a person would, once it is shown.
        if (text.includes('Authenticator code: ')) setImmediate(() => stdin.write(`${answers.shift()}\n`));
        return true;
      },
    };
    const env = { PLATFORM_CONFIG_DIR: tempDir() };
    const report = await loginToHost({
      env,
      host: origin,
      io: { stdin, stderr } as unknown as HostIO,
    });
    expect(report).toMatchObject({
      host: origin,
      kind: 'cli',
      mfaVerified: true,
      user: { email: 'a@acme.example' },
    });
    expect(pending).toBe(false);
    expect(stderr.text).toContain(`${origin}/device`);
    expect(stderr.text).toContain('did not accept the authenticator code: Wrong code. Try again.');
    expect(readHosts(env)).toEqual({
      current: origin,
      hosts: { [origin]: { token: 'cli-t', kind: 'cli', user: { email: 'a@acme.example' } } },
    });
  });
});

describe('live check lines on a terminal', () => {
  const version = (checks: [string, VersionView['checks'][number]['status']][]): VersionView => ({
    id: 'v1',
    slug: 'acme-notes',
    number: 3,
    source: 'acme-dev',
    status: 'checking',
    live: false,
    createdAt: '',
    verdictAt: null,
    checks: checks.map(([name, status]) => ({ name, status })),
  });

  it('rewrites the running line in place when its check ends', () => {
    const out = terminal();
    const lines = createCheckLines(out, plain);
    lines.update([
      version([
        ['archive', 'running'],
        ['install', 'pending'],
      ]),
    ]);
    lines.update([
      version([
        ['archive', 'passed'],
        ['install', 'running'],
      ]),
    ]);
    lines.update([
      version([
        ['archive', 'passed'],
        ['install', 'failed'],
      ]),
    ]);
    lines.close();
    expect(out.text).toBe(
      '\r\u001b[2Kacme-notes v3  … archive running' +
        '\r\u001b[2Kacme-notes v3  ✓ archive passed\n' +
        '\r\u001b[2Kacme-notes v3  … install running' +
        '\r\u001b[2Kacme-notes v3  ✗ install failed\n',
    );
  });

  it('ends an open line before starting another one', () => {
    const out = terminal();
    const lines = createCheckLines(out, plain);
    lines.update([
      version([
        ['archive', 'running'],
        ['install', 'running'],
      ]),
    ]);
    lines.close();
    expect(out.text).toBe(
      '\r\u001b[2Kacme-notes v3  … archive running\n\r\u001b[2Kacme-notes v3  … install running\n',
    );
  });
});

describe('the upload bar', () => {
  it('draws the share sent and erases itself when done', () => {
    const out = terminal();
    const bar = createByteProgress(out, 'Uploading');
    bar.update(0, 2048);
    bar.update(2048, 2048);
    bar.done();
    expect(out.text).toBe(
      '\r\u001b[2KUploading [........................] 0% 0 B / 2.0 KiB' +
        '\r\u001b[2KUploading [########################] 100% 2.0 KiB / 2.0 KiB' +
        '\r\u001b[2K',
    );
  });
});
