import {
  createTokenRequestSchema,
  deviceTokenResponseSchema,
  envelope,
  errorEnvelopeSchema,
  okEnvelope,
  sourceVersionsResponseSchema,
  versionDetailResponseSchema,
} from '@platform/wire';
import { describe, expect, it } from 'vitest';

// Bodies in the shape the host's routes send them (routes/versions.ts, device.ts, tokens.ts).
const version = {
  id: 'v1',
  slug: 'acme-notes',
  number: 3,
  source: 'acme-dev',
  status: 'gated',
  live: false,
  createdAt: '2026-12-01T10:00:00.000Z',
  verdictAt: '2026-12-01T10:02:00.000Z',
  submissionId: 's1',
  decision: null,
  checks: [
    { name: 'archive', status: 'passed', ms: 4 },
    { name: 'checks/tests', status: 'failed' },
  ],
};

describe('the envelope', () => {
  it('accepts a success and an error answer, keeping the extra fields of an error', () => {
    const schema = envelope(sourceVersionsResponseSchema);
    expect(schema.parse({ ok: true, data: { source: 'acme-dev', versions: [version] } })).toEqual({
      ok: true,
      data: { source: 'acme-dev', versions: [version] },
    });
    const refusal = {
      ok: false,
      error: { code: 'forbidden', message: 'You need a seat.', hint: 'Ask an owner.', seats: [] },
    };
    expect(schema.parse(refusal)).toEqual(refusal);
  });

  it('refuses an answer that is neither', () => {
    expect(envelope(sourceVersionsResponseSchema).safeParse({ data: {} }).success).toBe(false);
    expect(errorEnvelopeSchema.safeParse({ ok: false, error: { message: 'no code' } }).success).toBe(false);
    expect(
      okEnvelope(sourceVersionsResponseSchema).safeParse({ ok: true, data: { versions: [] } }).success,
    ).toBe(false);
  });
});

describe('versions', () => {
  it('accepts a version detail with findings and a review', () => {
    const detail = {
      version,
      findings: [
        {
          check: 'checks/tests',
          severity: 'error',
          code: 'checks/test-failed',
          message: 'lists',
          file: 'a.test.ts',
          line: 12,
        },
      ],
      review: {
        againstVersion: 2,
        egress: { added: ['https://api.acme.example/**'], removed: [] },
        oauthScopes: { added: [], removed: [] },
        tools: [{ name: 'sync', change: 'effect', from: 'read', to: 'write' }],
        storage: [],
        widens: true,
      },
      decisionReason: null,
    };
    expect(versionDetailResponseSchema.parse(detail)).toEqual(detail);
  });

  it('refuses an unknown status and a finding without a code', () => {
    expect(
      sourceVersionsResponseSchema.safeParse({ source: 's', versions: [{ ...version, status: 'live' }] })
        .success,
    ).toBe(false);
    expect(
      versionDetailResponseSchema.safeParse({
        version,
        findings: [{ check: 'install', severity: 'error', message: 'x' }],
        review: null,
        decisionReason: null,
      }).success,
    ).toBe(false);
  });
});

describe('account', () => {
  it('accepts the device flow session and refuses one without its token', () => {
    const session = {
      token: 't',
      token_type: 'Bearer',
      expires_at: '2027-01-01T00:00:00.000Z',
      mfa_pending: false,
      user: { id: 'u1', email: 'a@acme.example', name: 'A' },
    };
    expect(deviceTokenResponseSchema.parse(session)).toEqual(session);
    const { token: _token, ...tokenless } = session;
    expect(deviceTokenResponseSchema.safeParse(tokenless).success).toBe(false);
  });

  it('reads a token request as the host checks it', () => {
    expect(createTokenRequestSchema.parse({ name: 'ci', scopes: ['read'], expires_days: 90 })).toEqual({
      name: 'ci',
      scopes: ['read'],
      expires_days: 90,
    });
    for (const body of [
      { name: '  ' },
      { name: 'ci', scopes: [] },
      { name: 'ci', scopes: ['admin'] },
      { name: 'ci', expires_days: 1.5 },
      { name: 'ci', expires_days: 3651 },
    ]) {
      expect(createTokenRequestSchema.safeParse(body).success).toBe(false);
    }
  });
});
