import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createPartnerLog, HOST_LOG_FIELDS, toPartnerLine } from './createPartnerLog.js';
import { createLogBudgets, type LogBudgetLimits } from './logBudget.js';

const SECRET_URL = 'https://user:hunter2@api.acme.test/v1/items?token=s3cret#frag';

function capture(level: pino.Level = 'debug') {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const logger = pino(
    { level },
    {
      write(line: string) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { logger, lines, raw };
}

const LIMITS: LogBudgetLimits = {
  bytesPerCall: 64 * 1024,
  linesPerCall: 200,
  bytesPerMinute: 1024 * 1024,
  linesPerMinute: 2000,
};
const LINE_BYTES = 8 * 1024;

function partnerLog(limits: LogBudgetLimits = LIMITS, level: pino.Level = 'debug') {
  const out = capture(level);
  const log = createPartnerLog({
    logger: out.logger,
    identity: { integration: 'acme', version: 3, accountId: 'acct-1', requestId: 'req-1' },
    budget: createLogBudgets(limits).forCall('acme'),
    lineBytes: LINE_BYTES,
  });
  return { ...out, log: log as (entry: unknown) => void };
}

describe('toPartnerLine: redaction and validation', () => {
  it('redacts URLs in the message and in every field value, however deep', () => {
    const line = toPartnerLine(
      {
        level: 'warn',
        message: `GET ${SECRET_URL} failed`,
        fields: { url: SECRET_URL, nested: { list: [SECRET_URL, 1, true, null] } },
      },
      8192,
    );
    expect(line.level).toBe('warn');
    expect(line.message).toBe('GET https://api.acme.test/v1/items?... failed');
    expect(line.fields).toEqual({
      url: 'https://api.acme.test/v1/items?...',
      nested: { list: ['https://api.acme.test/v1/items?...', 1, true, null] },
    });
    expect(JSON.stringify(line)).not.toMatch(/hunter2|s3cret|frag/);
    expect(line.bytes).toBe(Buffer.byteLength(line.message) + Buffer.byteLength(JSON.stringify(line.fields)));
  });

  it('takes an unknown level as info, stringifies a message that is not a string, drops fields that are not a plain object', () => {
    expect(toPartnerLine({ level: 'fatal', message: 'x' }, 8192).level).toBe('info');
    expect(toPartnerLine({ level: 'constructor', message: 'x' }, 8192).level).toBe('info');
    expect(toPartnerLine({ level: 42, message: 'x' }, 8192).level).toBe('info');
    expect(toPartnerLine({ message: { url: SECRET_URL } }, 8192).message).toBe(
      '{"url":"https://api.acme.test/v1/items?..."}',
    );
    expect(toPartnerLine({ message: 7 }, 8192).message).toBe('7');
    expect(toPartnerLine({}, 8192).message).toBe('');
    expect(toPartnerLine(`plain ${SECRET_URL}`, 8192)).toMatchObject({
      level: 'info',
      message: 'plain https://api.acme.test/v1/items?...',
    });
    expect(toPartnerLine(null, 8192).message).toBe('null');
    for (const fields of [[SECRET_URL], 'text', 3, new Map([['a', 1]]), new Date(0)]) {
      expect(toPartnerLine({ message: 'x', fields }, 8192).fields).toBeUndefined();
    }
    expect(toPartnerLine({ message: 'x', fields: {} }, 8192).fields).toBeUndefined();
  });

  it('survives entries that throw when read or serialised', () => {
    const hostile = {
      get level(): string {
        throw new Error('boom');
      },
    };
    expect(toPartnerLine(hostile, 8192)).toMatchObject({ level: 'info', message: '[unreadable log entry]' });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toPartnerLine({ message: cyclic }, 8192).message).toBe('[object Object]');
    expect(toPartnerLine({ message: 'x', fields: { big: 1n } }, 8192).fields).toEqual({
      fieldsDropped: 'fields dropped: not serialisable as JSON',
    });
  });

  it('drops fields named like the host identity, listing them, and keeps a __proto__ key a plain field', () => {
    const fields = JSON.parse(
      '{"integration":"other","accountId":"victim","requestId":"r","partner":false,"event":"security","kind":"rate_limited","version":9,"msg":"m","level":60,"time":0,"ok":1,"__proto__":{"polluted":true}}',
    ) as Record<string, unknown>;
    const line = toPartnerLine({ message: 'x', fields }, 8192);
    expect(Object.keys(line.fields ?? {}).filter((key) => HOST_LOG_FIELDS.has(key))).toEqual([
      'droppedFields',
    ]);
    expect(line.fields).toMatchObject({ ok: 1 });
    expect((line.fields as { droppedFields: string[] }).droppedFields.sort()).toEqual(
      [
        'accountId',
        'event',
        'integration',
        'kind',
        'level',
        'msg',
        'partner',
        'requestId',
        'time',
        'version',
      ].sort(),
    );
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('toPartnerLine: the line cap', () => {
  it('cuts a long message after redaction, on a character boundary, with a marker', () => {
    const line = toPartnerLine({ message: `${'é'.repeat(100)} ${SECRET_URL}` }, 101);
    expect(line.message).toBe(
      `${'é'.repeat(50)} [... cut: the message had ${Buffer.byteLength(`${'é'.repeat(100)} ${SECRET_URL}`)} bytes]`,
    );
    expect(line.message).not.toContain('\uFFFD');
  });

  it('never leaves part of a URL unredacted when a huge message is cut before redaction', () => {
    // The cut point (4 x lineBytes characters) falls inside the userinfo of the second URL.
    const filler = `https://a.test/?${'q'.repeat(350)}`;
    const message = `${filler} https://user:hunter2hunter2hunter2@b.test/x?key=abc ${'z'.repeat(1000)}`;
    const line = toPartnerLine({ message }, 100);
    expect(line.message).not.toMatch(/hunter|key=|abc|user/);
    expect(line.message).toContain('https://a.test/?...');
    expect(line.message).toContain('[... cut: the message had');
    expect(line.bytes).toBeLessThan(200);
  });

  it('keeps a 22 MiB message to the cap', () => {
    const line = toPartnerLine({ level: 'info', message: 'x'.repeat(22 * 1024 * 1024) }, 8192);
    expect(line.bytes).toBeLessThan(8192 + 100);
    expect(line.message).toBe(`${'x'.repeat(8192)} [... cut: the message had ${22 * 1024 * 1024} bytes]`);
  });

  it('drops fields larger than the room the message leaves, saying so', () => {
    const line = toPartnerLine({ message: 'x'.repeat(50), fields: { data: 'y'.repeat(80) } }, 100);
    expect(line.fields).toEqual({
      fieldsDropped: expect.stringMatching(/^fields dropped: \d+ bytes, over the 100-byte line cap$/),
    });
    const huge = toPartnerLine({ message: 'x', fields: { data: 'y'.repeat(10_000) } }, 100);
    expect(huge.fields).toEqual({
      fieldsDropped: expect.stringContaining('characters, over the 100-byte line cap'),
    });
    const fits = toPartnerLine({ message: 'x', fields: { data: 'y'.repeat(20) } }, 100);
    expect(fits.fields).toEqual({ data: 'y'.repeat(20) });
  });
});

describe('createPartnerLog', () => {
  it('writes partner lines at their level with the call identity the partner cannot overwrite', () => {
    const { log, lines, raw } = partnerLog();
    log({
      level: 'error',
      message: `failed ${SECRET_URL}`,
      fields: { integration: 'victim', accountId: 'x', url: SECRET_URL },
    });
    log({ level: 'nope', message: 12 });
    expect(raw.join('\n')).not.toMatch(/hunter2|s3cret|victim/);
    // No key twice in the written JSON (a later duplicate would win when read).
    expect(raw[0]!.match(/"integration":/g)).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      msg: 'failed https://api.acme.test/v1/items?...',
      partner: true,
      integration: 'acme',
      version: 3,
      accountId: 'acct-1',
      requestId: 'req-1',
      url: 'https://api.acme.test/v1/items?...',
      droppedFields: ['integration', 'accountId'],
    });
    expect(lines[1]).toMatchObject({ level: 30, msg: '12', partner: true });
  });

  it('past the call budget logs exactly one truncated line and one security event, then nothing', () => {
    const { log, lines } = partnerLog({ ...LIMITS, linesPerCall: 3 });
    for (let index = 0; index < 50; index += 1) log({ level: 'info', message: `line ${index}` });
    expect(lines.filter((line) => line.partner === true).map((line) => line.msg)).toEqual([
      'line 0',
      'line 1',
      'line 2',
    ]);
    const notices = lines.filter((line) => line.partner !== true);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatchObject({
      level: 40,
      msg: 'partner log truncated: this call went past its log budget (3 lines, 65536 bytes); further lines dropped',
      budget: 'call',
      integration: 'acme',
      accountId: 'acct-1',
      loggedLines: 3,
    });
    expect(notices[1]).toMatchObject({
      level: 40,
      event: 'security',
      kind: 'log_budget',
      integration: 'acme',
      version: 3,
      accountId: 'acct-1',
      budget: 'call',
    });
  });

  it('counts redacted bytes, and neither prepares nor counts lines the logger would not write', () => {
    const { log, lines } = partnerLog({ ...LIMITS, bytesPerCall: 100 }, 'info');
    for (let index = 0; index < 500; index += 1) log({ level: 'debug', message: 'x'.repeat(50) });
    // 90 raw bytes, 29 once redacted: three fit in 100 bytes, a fourth does not.
    const query = `https://a.test/abcdefghij?${'k'.repeat(64)}`;
    for (let index = 0; index < 4; index += 1) log({ level: 'info', message: query });
    expect(lines.filter((line) => line.partner === true)).toHaveLength(3);
    expect(lines.filter((line) => line.kind === 'log_budget')).toHaveLength(1);
  });
});
