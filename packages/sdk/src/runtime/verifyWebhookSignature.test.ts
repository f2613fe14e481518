import { createHmac } from 'node:crypto';
import { sign as githubSign } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { type VerifyWebhookSignatureInput, verifyWebhookSignature } from './verifyWebhookSignature.js';

type Signature = VerifyWebhookSignatureInput['signature'];

const SECRET = 'It’s a Secret to Everybody';
const OTHER_SECRET = 'not-the-secret';
const PAYLOAD = '{"action":"opened","title":"Héllo ✓"}';
const T = 1_700_000_000;
const NOW = T * 1000 + 12_000;
// 0xff and 0xfe can never appear in UTF-8, so decoding them to a string would change the bytes.
const BINARY_BODY = new Uint8Array([0xff, 0xfe, 0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d, 0xc3, 0x28]);

function nodeHmac(
  algorithm: 'sha256' | 'sha1',
  secret: string,
  ...parts: Array<string | Uint8Array>
): Buffer {
  const mac = createHmac(algorithm, secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

const stripe = new Stripe('sk_test_x');

describe('GitHub style (scheme omitted, X-Hub-Signature-256)', () => {
  const signature: Signature = { header: 'X-Hub-Signature-256', secretName: 'GITHUB_WEBHOOK_SECRET' };
  const verify = (headers: VerifyWebhookSignatureInput['headers'], rawBody: string | Uint8Array = PAYLOAD) =>
    verifyWebhookSignature({ signature, headers, rawBody, secret: SECRET });

  it('accepts the signature made by @octokit/webhooks-methods', async () => {
    const header = await githubSign(SECRET, PAYLOAD);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verify({ 'X-Hub-Signature-256': header })).toEqual({ valid: true });
  });

  it('looks the header up case-insensitively in a record and in a Headers instance', async () => {
    const header = await githubSign(SECRET, PAYLOAD);
    expect(await verify({ 'x-hub-signature-256': header })).toEqual({ valid: true });
    expect(await verify({ 'X-HUB-SIGNATURE-256': header })).toEqual({ valid: true });
    expect(await verify(new Headers({ 'x-Hub-signature-256': header }))).toEqual({ valid: true });
    expect(await verify({ 'X-Hub-Signature-256': [header] })).toEqual({ valid: true });
  });

  it('accepts a bare hex digest and a base64 digest', async () => {
    const digest = nodeHmac('sha256', SECRET, PAYLOAD);
    expect(await verify({ 'X-Hub-Signature-256': digest.toString('hex') })).toEqual({ valid: true });
    expect(await verify({ 'X-Hub-Signature-256': digest.toString('hex').toUpperCase() })).toEqual({
      valid: true,
    });
    const mixedCase = [...digest.toString('hex')].map((c, i) => (i % 3 ? c : c.toUpperCase())).join('');
    expect(await verify({ 'X-Hub-Signature-256': mixedCase })).toEqual({ valid: true });
    expect(await verify({ 'X-Hub-Signature-256': digest.toString('base64') })).toEqual({ valid: true });
    expect(await verify({ 'X-Hub-Signature-256': `sha256=${digest.toString('base64')}` })).toEqual({
      valid: true,
    });
  });

  it('treats a string body as UTF-8, the same as its encoded bytes', async () => {
    const header = await githubSign(SECRET, PAYLOAD);
    expect(await verify({ 'X-Hub-Signature-256': header }, new TextEncoder().encode(PAYLOAD))).toEqual({
      valid: true,
    });
  });

  it('refuses a tampered body', async () => {
    const header = await githubSign(SECRET, PAYLOAD);
    expect(await verify({ 'X-Hub-Signature-256': header }, PAYLOAD.replace('opened', 'closed'))).toEqual({
      valid: false,
      reason: 'signature does not match',
      refusal: 'mismatch',
    });
  });

  it('refuses a signature made with another secret', async () => {
    const header = await githubSign(OTHER_SECRET, PAYLOAD);
    expect(await verify({ 'X-Hub-Signature-256': header })).toEqual({
      valid: false,
      reason: 'signature does not match',
      refusal: 'mismatch',
    });
  });

  it('reports a missing or blank header', async () => {
    const missing = {
      valid: false,
      reason: 'missing signature header "x-hub-signature-256"',
      refusal: 'missing_signature',
    };
    expect(await verify({ 'X-Hub-Signature': 'sha1=00' })).toEqual(missing);
    expect(await verify({ 'X-Hub-Signature-256': '  ' })).toEqual(missing);
    expect(await verify({ 'X-Hub-Signature-256': undefined })).toEqual(missing);
    expect(await verify(new Headers())).toEqual(missing);
  });

  it('reports a malformed header', async () => {
    const malformed = { valid: false, reason: 'malformed signature header', refusal: 'malformed' };
    expect(await verify({ 'X-Hub-Signature-256': 'sha256=not-hex!!' })).toEqual(malformed);
    expect(await verify({ 'X-Hub-Signature-256': '%%%' })).toEqual(malformed);
    // A digest's length in hex with one character just outside a hex range: not taken as hex. Text
    // that is not base64 either is malformed; base64 text decodes to the wrong length and mismatches.
    const hex = nodeHmac('sha256', SECRET, PAYLOAD).toString('hex');
    for (const bad of [':', '@', '`']) {
      expect(await verify({ 'X-Hub-Signature-256': `sha256=${bad}${hex.slice(1)}` })).toEqual(malformed);
    }
    for (const bad of ['/', 'G', 'g']) {
      expect(await verify({ 'X-Hub-Signature-256': `sha256=${bad}${hex.slice(1)}` })).toEqual({
        valid: false,
        reason: 'signature does not match',
        refusal: 'mismatch',
      });
    }
    expect(await verify({ 'X-Hub-Signature-256': 'md5=abcdef' })).toEqual({
      valid: false,
      reason: 'no sha256 digest in signature header',
      refusal: 'missing_signature',
    });
  });

  it('refuses a truncated digest, even one whose bytes are a prefix of the expected digest', async () => {
    const digest = nodeHmac('sha256', SECRET, PAYLOAD);
    const noMatch = { valid: false, reason: 'signature does not match', refusal: 'mismatch' };
    expect(await verify({ 'X-Hub-Signature-256': `sha256=${digest.toString('hex').slice(0, -2)}` })).toEqual(
      noMatch,
    );
    expect(await verify({ 'X-Hub-Signature-256': digest.subarray(0, 31).toString('base64') })).toEqual(
      noMatch,
    );
    expect(await verify({ 'X-Hub-Signature-256': digest.subarray(0, 1).toString('base64') })).toEqual(
      noMatch,
    );
  });

  it('accepts several digests when only the second matches (key rotation)', async () => {
    const old = await githubSign(OTHER_SECRET, PAYLOAD);
    const current = await githubSign(SECRET, PAYLOAD);
    expect(await verify({ 'X-Hub-Signature-256': `${old}, ${current}` })).toEqual({ valid: true });
    expect(await verify({ 'X-Hub-Signature-256': `${old} ${current}` })).toEqual({ valid: true });
    expect(await verify({ 'X-Hub-Signature-256': [old, current] })).toEqual({ valid: true });
    expect(await verify({ 'X-Hub-Signature-256': `${old},${old}` })).toEqual({
      valid: false,
      reason: 'signature does not match',
      refusal: 'mismatch',
    });
  });

  it('verifies a Uint8Array body with non-UTF-8 bytes byte for byte', async () => {
    const header = `sha256=${nodeHmac('sha256', SECRET, BINARY_BODY).toString('hex')}`;
    expect(await verify({ 'X-Hub-Signature-256': header }, BINARY_BODY)).toEqual({ valid: true });
    // The lossy string decoding of the same bytes must not verify.
    expect(await verify({ 'X-Hub-Signature-256': header }, new TextDecoder().decode(BINARY_BODY))).toEqual({
      valid: false,
      reason: 'signature does not match',
      refusal: 'mismatch',
    });
    // A view into a larger buffer covers only its own bytes.
    const padded = new Uint8Array([0, ...BINARY_BODY, 0]);
    expect(await verify({ 'X-Hub-Signature-256': header }, padded.subarray(1, -1))).toEqual({ valid: true });
  });
});

describe('GitHub style sha1 (digest scheme, X-Hub-Signature)', () => {
  const signature: Signature = {
    header: 'X-Hub-Signature',
    secretName: 'GITHUB_WEBHOOK_SECRET',
    scheme: { format: 'digest', algorithm: 'sha1' },
  };
  const verify = (header: string, rawBody: string | Uint8Array = PAYLOAD, secret = SECRET) =>
    verifyWebhookSignature({ signature, headers: { 'x-hub-signature': header }, rawBody, secret });
  const sha1Header = (secret: string, body: string | Uint8Array) =>
    `sha1=${nodeHmac('sha1', secret, body).toString('hex')}`;

  it('accepts a sha1= digest, in hex or base64', async () => {
    expect(await verify(sha1Header(SECRET, PAYLOAD))).toEqual({ valid: true });
    expect(await verify(nodeHmac('sha1', SECRET, PAYLOAD).toString('base64'))).toEqual({ valid: true });
  });

  it('accepts a Headers instance', async () => {
    const headers = new Headers({ 'X-Hub-Signature': sha1Header(SECRET, PAYLOAD) });
    expect(await verifyWebhookSignature({ signature, headers, rawBody: PAYLOAD, secret: SECRET })).toEqual({
      valid: true,
    });
  });

  it('refuses a tampered body or another secret', async () => {
    const noMatch = { valid: false, reason: 'signature does not match', refusal: 'mismatch' };
    expect(await verify(sha1Header(SECRET, PAYLOAD), `${PAYLOAD} `)).toEqual(noMatch);
    expect(await verify(sha1Header(SECRET, PAYLOAD), PAYLOAD, OTHER_SECRET)).toEqual(noMatch);
  });

  it('ignores digests labelled for another algorithm', async () => {
    const sha256 = await githubSign(SECRET, PAYLOAD);
    expect(await verify(sha256)).toEqual({
      valid: false,
      reason: 'no sha1 digest in signature header',
      refusal: 'missing_signature',
    });
    expect(await verify(`${sha256},${sha1Header(SECRET, PAYLOAD)}`)).toEqual({ valid: true });
  });

  it('accepts several digests when only the second matches', async () => {
    expect(await verify(`${sha1Header(OTHER_SECRET, PAYLOAD)} ${sha1Header(SECRET, PAYLOAD)}`)).toEqual({
      valid: true,
    });
  });

  it('verifies a Uint8Array body with non-UTF-8 bytes', async () => {
    expect(await verify(sha1Header(SECRET, BINARY_BODY), BINARY_BODY)).toEqual({ valid: true });
  });
});

describe('Stripe style (keyed, Stripe-Signature)', () => {
  const WHSEC = 'whsec_test_current';
  const OLD_WHSEC = 'whsec_test_previous';
  const signature: Signature = {
    header: 'Stripe-Signature',
    secretName: 'STRIPE_WEBHOOK_SECRET',
    scheme: {
      format: 'keyed',
      digestKey: 'v1',
      timestampKey: 't',
      signedPayload: '{timestamp}.{body}',
      toleranceSeconds: 300,
    },
  };
  const testHeader = (secret = WHSEC, timestamp = T, payload = PAYLOAD) =>
    stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  const v1Of = (header: string) => /v1=([0-9a-f]+)/.exec(header)?.[1] ?? '';
  const verify = (
    header: string,
    // 'clock' leaves `now` out so the real clock is used.
    options: { now?: Date | number | 'clock'; rawBody?: string | Uint8Array; secret?: string } = {},
  ) =>
    verifyWebhookSignature({
      signature,
      headers: { 'Stripe-Signature': header },
      rawBody: options.rawBody ?? PAYLOAD,
      secret: options.secret ?? WHSEC,
      ...(options.now === 'clock' ? {} : { now: options.now ?? NOW }),
    });

  it('accepts the header made by the stripe package', async () => {
    const header = testHeader();
    expect(header).toMatch(new RegExp(`^t=${T},v1=[0-9a-f]{64}$`));
    expect(await verify(header)).toEqual({ valid: true });
    expect(await verify(header, { now: new Date(NOW) })).toEqual({ valid: true });
  });

  it('looks the header up case-insensitively in a record and in a Headers instance', async () => {
    const header = testHeader();
    const input = { signature, rawBody: PAYLOAD, secret: WHSEC, now: NOW };
    expect(await verifyWebhookSignature({ ...input, headers: { 'stripe-signature': header } })).toEqual({
      valid: true,
    });
    expect(await verifyWebhookSignature({ ...input, headers: { 'STRIPE-SIGNATURE': header } })).toEqual({
      valid: true,
    });
    expect(
      await verifyWebhookSignature({ ...input, headers: new Headers({ 'Stripe-Signature': header }) }),
    ).toEqual({ valid: true });
  });

  it('refuses a tampered body, another secret and a changed timestamp', async () => {
    const noMatch = { valid: false, reason: 'signature does not match', refusal: 'mismatch' };
    expect(await verify(testHeader(), { rawBody: PAYLOAD.replace('Héllo', 'Hello') })).toEqual(noMatch);
    expect(await verify(testHeader(OTHER_SECRET))).toEqual(noMatch);
    // The timestamp is part of the signed payload, so moving it (even within the window) breaks the signature.
    expect(await verify(testHeader().replace(`t=${T}`, `t=${T + 1}`))).toEqual(noMatch);
  });

  it('reports a missing header', async () => {
    expect(
      await verifyWebhookSignature({ signature, headers: {}, rawBody: PAYLOAD, secret: WHSEC, now: NOW }),
    ).toEqual({
      valid: false,
      reason: 'missing signature header "stripe-signature"',
      refusal: 'missing_signature',
    });
  });

  it('reports a malformed header', async () => {
    const malformed = { valid: false, reason: 'malformed signature header', refusal: 'malformed' };
    expect(await verify('garbage')).toEqual(malformed);
    expect(await verify(`t=${T},=abc`)).toEqual(malformed);
    expect(await verify(`t=${T},v1=zz-not-a-digest!`)).toEqual(malformed);
    expect(await verify(`t=${T},v0=${v1Of(testHeader())}`)).toEqual({
      valid: false,
      reason: 'no "v1" digest in signature header',
      refusal: 'missing_signature',
    });
  });

  it('reports a missing or non-integer timestamp', async () => {
    const v1 = v1Of(testHeader());
    expect(await verify(`v1=${v1}`)).toEqual({
      valid: false,
      reason: 'missing timestamp',
      refusal: 'missing_timestamp',
    });
    expect(await verify(`t=${T}.5,v1=${v1}`)).toEqual({
      valid: false,
      reason: 'malformed timestamp',
      refusal: 'malformed',
    });
    expect(await verify(`t=soon,v1=${v1}`)).toEqual({
      valid: false,
      reason: 'malformed timestamp',
      refusal: 'malformed',
    });
  });

  it('refuses a stale or future timestamp outside the tolerance, inclusive at the edge', async () => {
    const outside = {
      valid: false,
      reason: 'timestamp outside the 300 s tolerance',
      refusal: 'stale_timestamp',
    };
    const header = testHeader();
    expect(await verify(header, { now: (T + 300) * 1000 })).toEqual({ valid: true });
    expect(await verify(header, { now: (T - 300) * 1000 })).toEqual({ valid: true });
    expect(await verify(header, { now: (T + 301) * 1000 })).toEqual(outside);
    expect(await verify(header, { now: (T - 301) * 1000 })).toEqual(outside);
    expect(await verify(header, { now: (T + 86_400) * 1000 })).toEqual(outside);
  });

  it('refuses a replay of an old header, using the current time by default', async () => {
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    const fresh = testHeader(WHSEC, Math.floor(Date.now() / 1000));
    expect(await verify(fresh, { now: 'clock' })).toEqual({ valid: true });
    expect(await verify(testHeader(WHSEC, tenMinutesAgo), { now: 'clock' })).toEqual({
      valid: false,
      reason: 'timestamp outside the 300 s tolerance',
      refusal: 'stale_timestamp',
    });
  });

  it('accepts two v1 values when only the second matches (secret rotation)', async () => {
    const header = `t=${T},v1=${v1Of(testHeader(OLD_WHSEC))},v1=${v1Of(testHeader(WHSEC))}`;
    expect(await verify(header)).toEqual({ valid: true });
    expect(await verify(header, { secret: OLD_WHSEC })).toEqual({ valid: true });
    expect(await verify(header, { secret: OTHER_SECRET })).toEqual({
      valid: false,
      reason: 'signature does not match',
      refusal: 'mismatch',
    });
    // Stripe's own test headers may carry a v0 entry; it is ignored, and spaces after commas are trimmed.
    expect(await verify(`t=${T}, v0=${v1Of(testHeader(OLD_WHSEC))}, v1=${v1Of(testHeader())}`)).toEqual({
      valid: true,
    });
  });

  it('accepts the v1 digest in base64 as well as hex', async () => {
    const base64 = Buffer.from(v1Of(testHeader()), 'hex').toString('base64');
    expect(await verify(`t=${T},v1=${base64}`)).toEqual({ valid: true });
  });

  it('verifies a Uint8Array body with non-UTF-8 bytes', async () => {
    const v1 = nodeHmac('sha256', WHSEC, `${T}.`, BINARY_BODY).toString('hex');
    expect(await verify(`t=${T},v1=${v1}`, { rawBody: BINARY_BODY })).toEqual({ valid: true });
    expect(await verify(`t=${T},v1=${v1}`, { rawBody: new TextDecoder().decode(BINARY_BODY) })).toEqual({
      valid: false,
      reason: 'signature does not match',
      refusal: 'mismatch',
    });
  });
});

describe('Slack style (keyed, X-Slack-Signature + X-Slack-Request-Timestamp)', () => {
  const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
  const signature: Signature = {
    header: 'X-Slack-Signature',
    secretName: 'SLACK_SIGNING_SECRET',
    scheme: {
      format: 'keyed',
      digestKey: 'v0',
      timestampHeader: 'X-Slack-Request-Timestamp',
      signedPayload: 'v0:{timestamp}:{body}',
      toleranceSeconds: 300,
    },
  };
  // Slack's published recipe: v0= + hex HMAC-SHA256 of `v0:{timestamp}:{body}`.
  const slackSignature = (secret: string, timestamp: number | string, body: string | Uint8Array) =>
    `v0=${nodeHmac('sha256', secret, `v0:${timestamp}:`, body).toString('hex')}`;
  const verify = (
    headers: VerifyWebhookSignatureInput['headers'],
    options: { now?: number; rawBody?: string | Uint8Array; secret?: string } = {},
  ) =>
    verifyWebhookSignature({
      signature,
      headers,
      rawBody: options.rawBody ?? PAYLOAD,
      secret: options.secret ?? SIGNING_SECRET,
      now: options.now ?? NOW,
    });
  const slackHeaders = (sig = slackSignature(SIGNING_SECRET, T, PAYLOAD), timestamp = String(T)) => ({
    'X-Slack-Signature': sig,
    'X-Slack-Request-Timestamp': timestamp,
  });

  it('accepts a signature made by the published recipe', async () => {
    expect(await verify(slackHeaders())).toEqual({ valid: true });
  });

  it('looks both headers up case-insensitively in a record and in a Headers instance', async () => {
    const sig = slackSignature(SIGNING_SECRET, T, PAYLOAD);
    expect(await verify({ 'x-slack-signature': sig, 'x-slack-request-timestamp': String(T) })).toEqual({
      valid: true,
    });
    expect(await verify(new Headers(slackHeaders()))).toEqual({ valid: true });
  });

  it('refuses a tampered body, another secret and a changed timestamp header', async () => {
    const noMatch = { valid: false, reason: 'signature does not match', refusal: 'mismatch' };
    expect(await verify(slackHeaders(), { rawBody: `${PAYLOAD}\n` })).toEqual(noMatch);
    expect(await verify(slackHeaders(), { secret: OTHER_SECRET })).toEqual(noMatch);
    expect(await verify(slackHeaders(undefined, String(T + 5)))).toEqual(noMatch);
  });

  it('reports a missing signature header and a missing timestamp header', async () => {
    expect(await verify({ 'X-Slack-Request-Timestamp': String(T) })).toEqual({
      valid: false,
      reason: 'missing signature header "x-slack-signature"',
      refusal: 'missing_signature',
    });
    expect(await verify({ 'X-Slack-Signature': slackSignature(SIGNING_SECRET, T, PAYLOAD) })).toEqual({
      valid: false,
      reason: 'missing timestamp',
      refusal: 'missing_timestamp',
    });
  });

  it('reports a malformed signature or timestamp header', async () => {
    expect(await verify(slackHeaders('v0'))).toEqual({
      valid: false,
      reason: 'malformed signature header',
      refusal: 'malformed',
    });
    expect(await verify(slackHeaders('v0=xyz!'))).toEqual({
      valid: false,
      reason: 'malformed signature header',
      refusal: 'malformed',
    });
    expect(await verify(slackHeaders(undefined, `${T}.5`))).toEqual({
      valid: false,
      reason: 'malformed timestamp',
      refusal: 'malformed',
    });
    expect(await verify(slackHeaders(undefined, '-1'))).toEqual({
      valid: false,
      reason: 'malformed timestamp',
      refusal: 'malformed',
    });
  });

  it('refuses a stale or future timestamp', async () => {
    const outside = {
      valid: false,
      reason: 'timestamp outside the 300 s tolerance',
      refusal: 'stale_timestamp',
    };
    expect(await verify(slackHeaders(), { now: (T + 3600) * 1000 })).toEqual(outside);
    expect(await verify(slackHeaders(), { now: (T - 3600) * 1000 })).toEqual(outside);
  });

  it('refuses a replayed old request outside the window', async () => {
    const old = T - 900;
    expect(await verify(slackHeaders(slackSignature(SIGNING_SECRET, old, PAYLOAD), String(old)))).toEqual({
      valid: false,
      reason: 'timestamp outside the 300 s tolerance',
      refusal: 'stale_timestamp',
    });
  });

  it('verifies a Uint8Array body with non-UTF-8 bytes', async () => {
    const sig = slackSignature(SIGNING_SECRET, T, BINARY_BODY);
    expect(await verify(slackHeaders(sig), { rawBody: BINARY_BODY })).toEqual({ valid: true });
    expect(await verify(slackHeaders(sig), { rawBody: new TextDecoder().decode(BINARY_BODY) })).toEqual({
      valid: false,
      reason: 'signature does not match',
      refusal: 'mismatch',
    });
  });
});

describe('Shopify style (digest, base64 in X-Shopify-Hmac-Sha256)', () => {
  const signature: Signature = {
    header: 'X-Shopify-Hmac-Sha256',
    secretName: 'SHOPIFY_API_SECRET',
    scheme: { format: 'digest' },
  };
  const shopify = (secret: string, body: string | Uint8Array) =>
    nodeHmac('sha256', secret, body).toString('base64');
  const verify = (
    headers: VerifyWebhookSignatureInput['headers'],
    rawBody: string | Uint8Array = PAYLOAD,
    secret = SECRET,
  ) => verifyWebhookSignature({ signature, headers, rawBody, secret, now: NOW });

  it('accepts a base64 digest, in a record of any casing and in a Headers instance', async () => {
    const hmac = shopify(SECRET, PAYLOAD);
    expect(await verify({ 'X-Shopify-Hmac-Sha256': hmac })).toEqual({ valid: true });
    expect(await verify({ 'x-shopify-hmac-sha256': hmac })).toEqual({ valid: true });
    expect(await verify(new Headers({ 'X-Shopify-Hmac-SHA256': hmac }))).toEqual({ valid: true });
  });

  it('accepts the same digest in hex and unpadded or URL-safe base64', async () => {
    const digest = nodeHmac('sha256', SECRET, PAYLOAD);
    expect(await verify({ 'X-Shopify-Hmac-Sha256': digest.toString('hex') })).toEqual({ valid: true });
    expect(await verify({ 'X-Shopify-Hmac-Sha256': digest.toString('base64url') })).toEqual({ valid: true });
  });

  it('does not care about the clock when no timestamp is configured', async () => {
    expect(
      await verifyWebhookSignature({
        signature,
        headers: { 'X-Shopify-Hmac-Sha256': shopify(SECRET, PAYLOAD) },
        rawBody: PAYLOAD,
        secret: SECRET,
        now: 0,
      }),
    ).toEqual({ valid: true });
  });

  it('refuses a tampered body and another secret', async () => {
    const noMatch = { valid: false, reason: 'signature does not match', refusal: 'mismatch' };
    expect(await verify({ 'X-Shopify-Hmac-Sha256': shopify(SECRET, PAYLOAD) }, '{}')).toEqual(noMatch);
    expect(await verify({ 'X-Shopify-Hmac-Sha256': shopify(OTHER_SECRET, PAYLOAD) })).toEqual(noMatch);
  });

  it('reports a missing or malformed header', async () => {
    expect(await verify({ 'X-Shopify-Topic': 'orders/create' })).toEqual({
      valid: false,
      reason: 'missing signature header "x-shopify-hmac-sha256"',
      refusal: 'missing_signature',
    });
    expect(await verify({ 'X-Shopify-Hmac-Sha256': '%%%' })).toEqual({
      valid: false,
      reason: 'malformed signature header',
      refusal: 'malformed',
    });
  });

  it('accepts several digests when only the second matches', async () => {
    const header = `${shopify(OTHER_SECRET, PAYLOAD)},${shopify(SECRET, PAYLOAD)}`;
    expect(await verify({ 'X-Shopify-Hmac-Sha256': header })).toEqual({ valid: true });
  });

  it('verifies a Uint8Array body with non-UTF-8 bytes', async () => {
    expect(await verify({ 'X-Shopify-Hmac-Sha256': shopify(SECRET, BINARY_BODY) }, BINARY_BODY)).toEqual({
      valid: true,
    });
  });
});

describe('scheme problems', () => {
  const headers = { 'X-Signature': 'v1=00' };
  const run = (scheme: Signature['scheme'], secret = SECRET) =>
    verifyWebhookSignature({
      signature: scheme
        ? { header: 'X-Signature', secretName: 'S', scheme }
        : { header: 'X-Signature', secretName: 'S' },
      headers,
      rawBody: PAYLOAD,
      secret,
      now: NOW,
    });

  it('refuses a keyed scheme without digestKey', async () => {
    expect(await run({ format: 'keyed' })).toEqual({
      valid: false,
      reason: 'scheme has no digestKey',
      refusal: 'misconfigured',
    });
  });

  it('refuses a tolerance or {timestamp} template without a timestamp source', async () => {
    const noSource = { valid: false, reason: 'scheme has no timestamp source', refusal: 'misconfigured' };
    expect(await run({ format: 'keyed', digestKey: 'v1', toleranceSeconds: 300 })).toEqual(noSource);
    expect(await run({ format: 'keyed', digestKey: 'v1', signedPayload: '{timestamp}.{body}' })).toEqual(
      noSource,
    );
  });

  it('applies the tolerance from a timestamp header even when the template does not sign it', async () => {
    const scheme = { timestampHeader: 'X-Timestamp', toleranceSeconds: 60 };
    const input = {
      signature: { header: 'X-Signature', secretName: 'S', scheme },
      headers: {
        'X-Signature': nodeHmac('sha256', SECRET, PAYLOAD).toString('hex'),
        'X-Timestamp': String(T),
      },
      rawBody: PAYLOAD,
      secret: SECRET,
    };
    expect(await verifyWebhookSignature({ ...input, now: NOW })).toEqual({ valid: true });
    expect(await verifyWebhookSignature({ ...input, now: (T + 61) * 1000 })).toEqual({
      valid: false,
      reason: 'timestamp outside the 60 s tolerance',
      refusal: 'stale_timestamp',
    });
  });

  it('refuses an empty secret instead of throwing', async () => {
    expect(await run(undefined, '')).toEqual({
      valid: false,
      reason: 'missing secret',
      refusal: 'misconfigured',
    });
  });
});

describe('reasons never leak the expected digest or the secret', () => {
  it('holds for mismatched, wrong-length, malformed and keyed failures', async () => {
    const expected = nodeHmac('sha256', SECRET, PAYLOAD);
    const secrets = [
      expected.toString('hex'),
      expected.toString('base64'),
      expected.toString('base64url'),
      SECRET,
    ];
    const signature: Signature = { header: 'X-Hub-Signature-256', secretName: 'S' };
    const failures = [
      await githubSign(OTHER_SECRET, PAYLOAD),
      `sha256=${expected.toString('hex').slice(0, -1)}0`,
      'sha256=zz',
      'md5=abc',
    ];
    const reasons: string[] = [];
    for (const header of failures) {
      const result = await verifyWebhookSignature({
        signature,
        headers: { 'X-Hub-Signature-256': header },
        rawBody: PAYLOAD,
        secret: SECRET,
      });
      expect(result.valid).toBe(false);
      reasons.push(result.reason ?? '');
    }
    const stripeHeader = stripe.webhooks.generateTestHeaderString({
      payload: PAYLOAD,
      secret: SECRET,
      timestamp: T,
    });
    const stripeResult = await verifyWebhookSignature({
      signature: {
        header: 'Stripe-Signature',
        secretName: 'S',
        scheme: { format: 'keyed', digestKey: 'v1', timestampKey: 't', signedPayload: '{timestamp}.{body}' },
      },
      headers: { 'Stripe-Signature': stripeHeader },
      rawBody: `${PAYLOAD}x`,
      secret: SECRET,
    });
    expect(stripeResult.valid).toBe(false);
    reasons.push(stripeResult.reason ?? '');
    const stripeExpected = nodeHmac('sha256', SECRET, `${T}.${PAYLOAD}x`);
    secrets.push(stripeExpected.toString('hex'), stripeExpected.toString('base64'));

    expect(reasons.every((reason) => reason.length > 0)).toBe(true);
    for (const reason of reasons) {
      for (const secret of secrets) expect(reason).not.toContain(secret);
    }
  });
});
