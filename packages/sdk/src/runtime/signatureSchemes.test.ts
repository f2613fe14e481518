import { createHmac, randomBytes } from 'node:crypto';
import { Signature as HubSpotSignature } from '@hubspot/api-client';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhookPayload } from './signWebhookPayload.js';
import { type VerifyWebhookSignatureInput, verifyWebhookSignature } from './verifyWebhookSignature.js';

// The 0.5 scheme fields: format `versioned`, `secretEncoding`, `timestampUnit`, and the `{method}`,
// `{url}` and `{header:<name>}` placeholders, each signed by the vendor's own library where one exists.

type Signature = VerifyWebhookSignatureInput['signature'];

const PAYLOAD = '{"type":"contact.created","name":"Zoë ✓"}';

const STANDARD: Signature = {
  header: 'webhook-signature',
  secretName: 'STANDARD_WEBHOOK_SECRET',
  scheme: {
    format: 'versioned',
    digestKey: 'v1',
    secretEncoding: 'base64',
    timestampHeader: 'webhook-timestamp',
    signedPayload: '{header:webhook-id}.{timestamp}.{body}',
    toleranceSeconds: 300,
  },
};
const HUBSPOT: Signature = {
  header: 'X-HubSpot-Signature-v3',
  secretName: 'HUBSPOT_CLIENT_SECRET',
  scheme: {
    timestampHeader: 'X-HubSpot-Request-Timestamp',
    timestampUnit: 'milliseconds',
    signedPayload: '{method}{url}{body}{timestamp}',
    toleranceSeconds: 300,
  },
};

describe('format "versioned" with a base64 whsec_ secret and {header:webhook-id} (Standard Webhooks)', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const vendor = new StandardWebhook(secret);

  it('accepts what the standardwebhooks library signs, and our signature passes its verify', async () => {
    const now = new Date();
    const headers = {
      'webhook-id': 'msg_2b9aA',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': vendor.sign('msg_2b9aA', now, PAYLOAD),
    };
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const verify = (extra: Partial<typeof headers> = {}, rawBody = PAYLOAD) =>
      verifyWebhookSignature({
        signature: STANDARD,
        headers: { ...headers, ...extra },
        rawBody,
        secret,
        now,
      });
    expect(await verify()).toEqual({ valid: true });

    const ours = await signWebhookPayload({
      signature: STANDARD,
      rawBody: PAYLOAD,
      secret,
      now,
      headers: { 'Webhook-Id': 'msg_2b9aA' },
    });
    expect(ours).toEqual({
      'Webhook-Id': 'msg_2b9aA',
      'webhook-signature': headers['webhook-signature'],
      'webhook-timestamp': headers['webhook-timestamp'],
    });
    expect(vendor.verify(PAYLOAD, { ...ours, 'webhook-id': 'msg_2b9aA' })).toEqual(JSON.parse(PAYLOAD));

    // Another message id, a tampered body, a missing id header.
    expect(await verify({ 'webhook-id': 'msg_other' })).toEqual({
      valid: false,
      reason: 'signature does not match',
      refusal: 'mismatch',
    });
    expect(await verify({}, PAYLOAD.replace('Zoë', 'Zoe'))).toMatchObject({ valid: false });
    const { 'webhook-id': _id, ...withoutId } = headers;
    expect(
      await verifyWebhookSignature({
        signature: STANDARD,
        headers: withoutId,
        rawBody: PAYLOAD,
        secret,
        now,
      }),
    ).toEqual({ valid: false, reason: 'missing header "webhook-id"', refusal: 'missing_header' });
  });

  it('accepts any matching v1 entry of a space-separated list, skips other versions, refuses a malformed list', async () => {
    const now = new Date();
    const good = vendor.sign('msg_1', now, PAYLOAD);
    const other = new StandardWebhook(`whsec_${randomBytes(24).toString('base64')}`).sign(
      'msg_1',
      now,
      PAYLOAD,
    );
    const base = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)) };
    const verify = (value: string) =>
      verifyWebhookSignature({
        signature: STANDARD,
        headers: { ...base, 'webhook-signature': value },
        rawBody: PAYLOAD,
        secret,
        now,
      });
    expect(await verify(`${other} v2,${good.slice(3)} ${good}`)).toEqual({ valid: true });
    expect(await verify(`${other}`)).toEqual({
      valid: false,
      reason: 'signature does not match',
      refusal: 'mismatch',
    });
    expect(await verify(`v2,${good.slice(3)}`)).toEqual({
      valid: false,
      reason: 'no "v1" digest in signature header',
      refusal: 'missing_signature',
    });
    expect(await verify(good.slice(3))).toEqual({
      valid: false,
      reason: 'malformed signature header',
      refusal: 'malformed',
    });
  });

  it('refuses a stale timestamp after checking the signature', async () => {
    const sent = new Date(1_700_000_000_000);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': vendor.sign('msg_1', sent, PAYLOAD),
    };
    const at = (ms: number) =>
      verifyWebhookSignature({ signature: STANDARD, headers, rawBody: PAYLOAD, secret, now: ms });
    expect(await at(sent.getTime() + 300_000)).toEqual({ valid: true });
    expect(await at(sent.getTime() + 301_000)).toEqual({
      valid: false,
      reason: 'timestamp outside the 300 s tolerance',
      refusal: 'stale_timestamp',
    });
  });

  it('reports an invalid base64 secret as a refusal, never a crash, and never echoes the secret', async () => {
    for (const bad of ['whsec_not base64!', 'whsec_abc', 'whsec_']) {
      const verdict = await verifyWebhookSignature({
        signature: STANDARD,
        headers: { 'webhook-id': 'm', 'webhook-timestamp': '1', 'webhook-signature': 'v1,AAAA' },
        rawBody: PAYLOAD,
        secret: bad,
      });
      expect(verdict.valid).toBe(false);
      expect(verdict.reason).toMatch(/^the signing secret is not valid base64|^missing secret$/);
      expect(verdict.reason).not.toContain(bad.slice(6) || '\u0000');
      await expect(
        signWebhookPayload({
          signature: STANDARD,
          rawBody: PAYLOAD,
          secret: bad,
          headers: { 'webhook-id': 'm' },
        }),
      ).rejects.toThrow(TypeError);
    }
  });

  it('accepts a base64 secret without the whsec_ prefix', async () => {
    const raw = randomBytes(32);
    const now = new Date();
    const headers = {
      'webhook-id': 'msg_9',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new StandardWebhook(raw, { format: 'raw' }).sign('msg_9', now, PAYLOAD),
    };
    expect(
      await verifyWebhookSignature({
        signature: STANDARD,
        headers,
        rawBody: PAYLOAD,
        secret: raw.toString('base64'),
        now,
      }),
    ).toEqual({ valid: true });
  });
});

describe('{method}{url}{body}{timestamp} in milliseconds (HubSpot v3)', () => {
  const secret = 'hubspot-client-secret';
  const url = 'https://platform.example.test/api/integrations/crm/webhooks/contact?accountId=acme';
  const timestampMs = 1_700_000_123_456;
  // HubSpot's own library computes the v3 signature.
  const signed = HubSpotSignature.getSignature('POST', 'v3', {
    signature: '',
    clientSecret: secret,
    requestBody: PAYLOAD,
    url,
    timestamp: timestampMs,
  });
  const headers = { 'X-HubSpot-Signature-v3': signed, 'X-HubSpot-Request-Timestamp': String(timestampMs) };
  const verify = (input: Partial<VerifyWebhookSignatureInput>) =>
    verifyWebhookSignature({
      signature: HUBSPOT,
      headers,
      rawBody: PAYLOAD,
      secret,
      method: 'POST',
      url,
      now: timestampMs + 1_000,
      ...input,
    });

  it('accepts the signature @hubspot/api-client computes, and signs the same bytes', async () => {
    expect(await verify({})).toEqual({ valid: true });
    // The method is compared upper-cased, as HubSpot signs it.
    expect(await verify({ method: 'post' })).toEqual({ valid: true });
    const ours = await signWebhookPayload({
      signature: HUBSPOT,
      rawBody: PAYLOAD,
      secret,
      method: 'POST',
      url,
      now: timestampMs,
      encoding: 'base64',
    });
    expect(ours['X-HubSpot-Request-Timestamp']).toBe(String(timestampMs));
    expect(ours['X-HubSpot-Signature-v3']).toBe(`sha256=${signed}`);
  });

  it('takes the URL as a function, called only when the scheme signs {url}', async () => {
    let made = 0;
    const makeUrl = () => {
      made += 1;
      return url;
    };
    expect(await verify({ url: makeUrl })).toEqual({ valid: true });
    expect(made).toBe(1);
    const github = await verifyWebhookSignature({
      signature: { header: 'X-Hub-Signature-256', secretName: 'GITHUB_WEBHOOK_SECRET' },
      // A well-formed digest, so the signed bytes are built (and refused).
      headers: { 'X-Hub-Signature-256': `sha256=${'0'.repeat(64)}` },
      rawBody: PAYLOAD,
      secret,
      url: makeUrl,
    });
    expect(github).toMatchObject({ valid: false, refusal: 'mismatch' });
    expect(made).toBe(1);
  });

  it("signs what HubSpot's own isValid accepts (a current timestamp: it reads the clock)", async () => {
    const now = Date.now();
    const ours = await signWebhookPayload({
      signature: HUBSPOT,
      rawBody: PAYLOAD,
      secret,
      method: 'POST',
      url,
      now,
      encoding: 'base64',
    });
    const digest = ours['X-HubSpot-Signature-v3']!.replace(/^sha256=/, '');
    const check = (requestBody: string) =>
      HubSpotSignature.isValid({
        signatureVersion: 'v3',
        signature: digest,
        clientSecret: secret,
        requestBody,
        url,
        method: 'POST',
        timestamp: Number(ours['X-HubSpot-Request-Timestamp']),
      });
    expect(check(PAYLOAD)).toBe(true);
    expect(check(`${PAYLOAD} `)).toBe(false);
  });

  it('refuses another URL, another method, a tampered timestamp', async () => {
    const mismatch = { valid: false, reason: 'signature does not match', refusal: 'mismatch' };
    expect(await verify({ url: url.replace('acme', 'other') })).toEqual(mismatch);
    expect(await verify({ method: 'PUT' })).toEqual(mismatch);
    expect(
      await verify({ headers: { ...headers, 'X-HubSpot-Request-Timestamp': String(timestampMs + 1) } }),
    ).toEqual(mismatch);
  });

  it('reads the tolerance in milliseconds: 300 s is 300,000 ms either side', async () => {
    expect(await verify({ now: timestampMs + 300_000 })).toEqual({ valid: true });
    expect(await verify({ now: timestampMs - 300_000 })).toEqual({ valid: true });
    expect(await verify({ now: timestampMs + 300_001 })).toEqual({
      valid: false,
      reason: 'timestamp outside the 300 s tolerance',
      refusal: 'stale_timestamp',
    });
  });

  it('refuses (as misconfigured) a scheme signing {url} or {method} when the caller gives none', async () => {
    expect(await verify({ url: undefined as unknown as string })).toEqual({
      valid: false,
      reason: 'the scheme signs {url}, but no request URL was given',
      refusal: 'misconfigured',
    });
    const { method: _method, ...noMethod } = {
      signature: HUBSPOT,
      headers,
      rawBody: PAYLOAD,
      secret,
      url,
      now: timestampMs,
      method: 'POST',
    };
    expect(await verifyWebhookSignature(noMethod)).toEqual({
      valid: false,
      reason: 'the scheme signs {method}, but no request method was given',
      refusal: 'misconfigured',
    });
    await expect(
      signWebhookPayload({ signature: HUBSPOT, rawBody: PAYLOAD, secret, method: 'POST', now: timestampMs }),
    ).rejects.toThrow('cannot sign: the scheme signs {url}, but no request URL was given');
  });
});

describe('{header:<name>} with other formats', () => {
  const signature: Signature = {
    header: 'X-Slack-Signature',
    secretName: 'S',
    scheme: {
      format: 'keyed',
      digestKey: 'v0',
      timestampHeader: 'X-Slack-Request-Timestamp',
      signedPayload: 'v0:{timestamp}:{header:X-Slack-Retry-Num}:{body}',
    },
  };

  it('signs the header value as received (case-insensitive name) and refuses when it is missing', async () => {
    const ts = '1700000000';
    const digest = createHmac('sha256', 'slack').update(`v0:${ts}:2:${PAYLOAD}`).digest('hex');
    const headers = {
      'x-slack-signature': `v0=${digest}`,
      'x-slack-request-timestamp': ts,
      'x-slack-retry-num': '2',
    };
    expect(await verifyWebhookSignature({ signature, headers, rawBody: PAYLOAD, secret: 'slack' })).toEqual({
      valid: true,
    });
    expect(
      await verifyWebhookSignature({
        signature,
        headers: { ...headers, 'x-slack-retry-num': '3' },
        rawBody: PAYLOAD,
        secret: 'slack',
      }),
    ).toEqual({ valid: false, reason: 'signature does not match', refusal: 'mismatch' });
    const { 'x-slack-retry-num': _retry, ...without } = headers;
    expect(
      await verifyWebhookSignature({ signature, headers: without, rawBody: PAYLOAD, secret: 'slack' }),
    ).toEqual({ valid: false, reason: 'missing header "x-slack-retry-num"', refusal: 'missing_header' });
    await expect(
      signWebhookPayload({ signature, rawBody: PAYLOAD, secret: 'slack', now: 1_700_000_000_000 }),
    ).rejects.toThrow('cannot sign: missing header "x-slack-retry-num"');
    const ours = await signWebhookPayload({
      signature,
      rawBody: PAYLOAD,
      secret: 'slack',
      now: 1_700_000_000_000,
      headers: { 'X-Slack-Retry-Num': '2' },
    });
    expect(ours).toEqual({
      'X-Slack-Retry-Num': '2',
      'X-Slack-Signature': `v0=${digest}`,
      'X-Slack-Request-Timestamp': ts,
    });
  });

  it('keys the HMAC with the utf8 secret by default and the decoded bytes with base64', async () => {
    const key = randomBytes(16);
    const digest = createHmac('sha256', key).update(PAYLOAD).digest('hex');
    const base: Signature = { header: 'X-Sig', secretName: 'S', scheme: { secretEncoding: 'base64' } };
    const headers = { 'X-Sig': digest };
    expect(
      await verifyWebhookSignature({
        signature: base,
        headers,
        rawBody: PAYLOAD,
        secret: key.toString('base64'),
      }),
    ).toEqual({ valid: true });
    expect(
      await verifyWebhookSignature({
        signature: { header: 'X-Sig', secretName: 'S' },
        headers,
        rawBody: PAYLOAD,
        secret: key.toString('base64'),
      }),
    ).toEqual({ valid: false, reason: 'signature does not match', refusal: 'mismatch' });
  });
});
