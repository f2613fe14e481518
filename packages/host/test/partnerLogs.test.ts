import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../src/HostServices.js';
import { startTestHost, type TestHost } from './_host.js';

// Every partner log line reaches the host log through the call's `log` capability: redacted and
// budgeted there, whatever the guest (an isolate here, the default runtime) did or did not do.

interface Captured {
  readonly raw: string[];
  readonly logger: pino.Logger;
  lines(): Record<string, unknown>[];
  partner(): Record<string, unknown>[];
  bytes(): number;
}

function captureLog(): Captured {
  const raw: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void raw.push(line) });
  const lines = () => raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    raw,
    logger,
    lines,
    partner: () => lines().filter((line) => line.partner === true),
    bytes: () => raw.reduce((total, line) => total + Buffer.byteLength(line), 0),
  };
}

const SECRET_URL = 'https://partner:pa55word@api.logs.test/v1/items?api_key=k3y&sig=s1g#frag';
const SHOWN = 'https://api.logs.test/v1/items?...';

describe('partner logs through the host (default limits)', () => {
  const log = captureLog();
  let host: TestHost;
  const call = (action: string, json: unknown) =>
    host.call(`/api/integrations/test-logs/actions/${action}?accountId=${host.accountId}`, { json });

  beforeAll(async () => {
    host = await startTestHost({
      projects: ['logs'],
      logger: log.logger,
      egress: { lookup: async () => [{ address: '10.0.0.7', family: 4 }] },
    });
  });
  afterAll(() => host.close());
  beforeEach(() => {
    log.raw.length = 0;
  });

  it('redacts URLs logged through ctx.logger and through console in the isolate', async () => {
    const response = await call('log-secrets', { url: SECRET_URL });
    expect(await response.json()).toEqual({ ok: true, data: { logged: true } });
    const text = log.raw.join('\n');
    expect(text).not.toMatch(/pa55word|partner:|api_key|k3y|s1g|frag/);
    const partner = log.partner();
    expect(partner.map((line) => line.msg)).toEqual([
      `logger calling ${SHOWN}`,
      `console calling ${SHOWN}`,
      `console object {"url":"${SHOWN}"}`,
      `Error: failed at ${SHOWN}`,
    ]);
    expect(partner.map((line) => line.level)).toEqual([30, 30, 50, 40]);
    // The host's identity fields stay the host's; the partner's are dropped and named.
    expect(partner[0]).toMatchObject({
      integration: 'test-logs',
      accountId: host.accountId,
      url: SHOWN,
      nested: { urls: [SHOWN] },
      droppedFields: ['integration', 'accountId', 'event'],
    });
    expect(partner[0]!.event).toBeUndefined();
    for (const line of partner) {
      expect(line).toMatchObject({ integration: 'test-logs', accountId: host.accountId, version: 1 });
      expect(typeof line.requestId).toBe('string');
    }
  });

  it('bounds a call that logs far past its budget: one truncated line, one security event', async () => {
    const response = await call('log-flood', { lines: 5000, size: 1000 });
    expect(await response.json()).toEqual({ ok: true, data: { logged: 5000 } });
    const partner = log.partner();
    const partnerBytes = partner.reduce((total, line) => total + Buffer.byteLength(String(line.msg)), 0);
    expect(partnerBytes).toBeLessThanOrEqual(DEFAULT_LIMITS.logBytesPerCall);
    expect(partner.length).toBeLessThanOrEqual(DEFAULT_LIMITS.logLinesPerCall);
    expect(partner.length).toBeGreaterThan(10);
    // Console and ctx.logger lines share the budget, in order.
    expect(partner.slice(0, 2).map((line) => String(line.msg).slice(0, 8))).toEqual(['flood 0 ', 'flood 1 ']);
    const truncated = log
      .lines()
      .filter((line) => line.event !== 'security' && String(line.msg).startsWith('partner log truncated'));
    expect(truncated).toEqual([
      expect.objectContaining({
        level: 40,
        msg: `partner log truncated: this call went past its log budget (${DEFAULT_LIMITS.logLinesPerCall} lines, ${DEFAULT_LIMITS.logBytesPerCall} bytes); further lines dropped`,
        budget: 'call',
        integration: 'test-logs',
      }),
    ]);
    const events = log.lines().filter((line) => line.event === 'security');
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'log_budget',
        integration: 'test-logs',
        version: 1,
        accountId: host.accountId,
      }),
    ]);
    // Everything this call wrote to the host log: 5 MB sent, about the budget kept.
    expect(log.bytes()).toBeLessThan(DEFAULT_LIMITS.logBytesPerCall + 64 * 1024);
  });

  it('cuts one huge line (22 MiB) to the line cap, redacted', async () => {
    const response = await call('log-huge', { bytes: 22 * 1024 * 1024 });
    expect(await response.json()).toEqual({ ok: true, data: { logged: 1 } });
    const [line, ...rest] = log.partner();
    expect(rest).toEqual([]);
    expect(String(line!.msg)).toMatch(
      /^huge https:\/\/api\.logs\.test\/\?\.\.\. y+ \[\.\.\. cut: the message had \d+ bytes\]$/,
    );
    expect(log.bytes()).toBeLessThan(DEFAULT_LIMITS.logLineBytes + 2048);
  });

  it('logs a security event when ctx.fetch is refused for a private address, and the guest still gets the error', async () => {
    const response = await call('fetch-private', {});
    expect(await response.json()).toEqual({ ok: true, data: { refused: 'EgressDeniedError' } });
    const events = log.lines().filter((line) => line.event === 'security');
    expect(events).toEqual([
      expect.objectContaining({
        level: 40,
        kind: 'egress_private_address',
        integration: 'test-logs',
        version: 1,
        accountId: host.accountId,
        origin: 'https://api.logs.test',
      }),
    ]);
    expect(log.raw.join('\n')).not.toMatch(/key=k/);
  });
});

describe('partner logs: the per-integration minute, configured through the environment', () => {
  const log = captureLog();
  let host: TestHost;

  beforeAll(async () => {
    host = await startTestHost({
      projects: ['logs'],
      logger: log.logger,
      env: { PLATFORM_LOG_LINES_PER_CALL: '30', PLATFORM_LOG_LINES_PER_MINUTE: '50' },
      now: () => new Date(Date.UTC(2025, 0, 1, 12, 0, 0)),
    });
  });
  afterAll(() => host.close());

  it('shares one window across calls and says so once', async () => {
    for (let run = 0; run < 4; run += 1) {
      const response = await host.call(
        `/api/integrations/test-logs/actions/log-flood?accountId=${host.accountId}`,
        { json: { lines: 40, size: 10 } },
      );
      expect(response.status).toBe(200);
    }
    expect(log.partner()).toHaveLength(50);
    const truncated = log
      .lines()
      .filter((line) => line.event !== 'security' && String(line.msg).startsWith('partner log truncated'));
    // The first call went past its own 30 lines; the second past the integration's 50 for the minute.
    expect(truncated.map((line) => line.budget)).toEqual(['call', 'minute']);
    expect(truncated[1]!.msg).toBe(
      'partner log truncated: this integration went past its log budget for this minute (50 lines, 1048576 bytes); further lines dropped until the next minute',
    );
    expect(log.lines().filter((line) => line.kind === 'log_budget')).toHaveLength(2);
  });

  it('refuses a malformed variable at start', async () => {
    await expect(
      startTestHost({ projects: [], env: { PLATFORM_LOG_BYTES_PER_CALL: '64k' } }),
    ).rejects.toThrow(/PLATFORM_LOG_BYTES_PER_CALL is "64k"; set it to a whole number of at least 1/);
  });
});
