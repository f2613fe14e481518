import { createHmac } from 'node:crypto';
import { verify as githubVerify } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { signWebhookPayload } from './signWebhookPayload.js';
import { type VerifyWebhookSignatureInput, verifyWebhookSignature } from './verifyWebhookSignature.js';

type Signature = VerifyWebhookSignatureInput['signature'];

const SECRET = 'It’s a Secret to Everybody';
const PAYLOAD = '{"action":"opened","title":"Héllo ✓"}';
const T = 1_700_000_000;
const NOW = T * 1000 + 400;
const BINARY_BODY = new Uint8Array([0xff, 0xfe, 0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d, 0xc3, 0x28]);

const SCHEMES: Record<string, Signature> = {
  'default (scheme omitted)': { header: 'X-Hub-Signature-256', secretName: 'S' },
  'digest sha256': { header: 'X-Sig', secretName: 'S', scheme: { algorithm: 'sha256', format: 'digest' } },
  'digest sha1': { header: 'X-Hub-Signature', secretName: 'S', scheme: { algorithm: 'sha1' } },
  'keyed with timestampKey (Stripe)': {
    header: 'Stripe-Signature',
    secretName: 'S',
    scheme: {
      format: 'keyed',
      digestKey: 'v1',
      timestampKey: 't',
      signedPayload: '{timestamp}.{body}',
      toleranceSeconds: 300,
    },
  },
  'keyed with timestampHeader (Slack)': {
    header: 'X-Slack-Signature',
    secretName: 'S',
    scheme: {
      format: 'keyed',
      digestKey: 'v0',
      timestampHeader: 'X-Slack-Request-Timestamp',
      signedPayload: 'v0:{timestamp}:{body}',
      toleranceSeconds: 300,
    },
  },
  'digest with timestampHeader': {
    header: 'X-Sig',
    secretName: 'S',
    scheme: { timestampHeader: 'X-Sig-Time', signedPayload: '{timestamp}:{body}', toleranceSeconds: 60 },
  },
  'keyed sha1 without timestamp': {
    header: 'X-Sig',
    secretName: 'S',
    scheme: { algorithm: 'sha1', format: 'keyed', digestKey: 'sig' },
  },
};

describe('signWebhookPayload', () => {
  for (const [name, signature] of Object.entries(SCHEMES)) {
    for (const encoding of ['hex', 'base64'] as const) {
      it(`${name}, ${encoding}: its headers verify, and not for another body or secret`, async () => {
        const headers = await signWebhookPayload({
          signature,
          rawBody: PAYLOAD,
          secret: SECRET,
          now: NOW,
          encoding,
        });
        const verify = (rawBody: string | Uint8Array, secret = SECRET) =>
          verifyWebhookSignature({ signature, headers, rawBody, secret, now: NOW });
        expect(await verify(PAYLOAD)).toEqual({ valid: true });
        expect(await verify(PAYLOAD.replace('opened', 'closed'))).toEqual({
          valid: false,
          reason: 'signature does not match',
          refusal: 'mismatch',
        });
        expect(await verify(PAYLOAD, 'another secret')).toEqual({
          valid: false,
          reason: 'signature does not match',
          refusal: 'mismatch',
        });
      });
    }
  }

  it('signs the default scheme as sha256=<hex> of the body, the header named as declared', async () => {
    const headers = await signWebhookPayload({
      signature: SCHEMES['default (scheme omitted)']!,
      rawBody: PAYLOAD,
      secret: SECRET,
    });
    const expected = createHmac('sha256', SECRET).update(PAYLOAD).digest('hex');
    expect(headers).toEqual({ 'X-Hub-Signature-256': `sha256=${expected}` });
  });

  it('puts the timestamp first in a keyed header and in its own header, as Unix seconds', async () => {
    const stripe = await signWebhookPayload({
      signature: SCHEMES['keyed with timestampKey (Stripe)']!,
      rawBody: PAYLOAD,
      secret: SECRET,
      now: new Date(NOW),
    });
    expect(stripe['Stripe-Signature']).toMatch(new RegExp(`^t=${T},v1=[0-9a-f]{64}$`));
    const slack = await signWebhookPayload({
      signature: SCHEMES['keyed with timestampHeader (Slack)']!,
      rawBody: PAYLOAD,
      secret: SECRET,
      now: NOW,
    });
    const digest = createHmac('sha256', SECRET).update(`v0:${T}:${PAYLOAD}`).digest('hex');
    expect(slack).toEqual({ 'X-Slack-Signature': `v0=${digest}`, 'X-Slack-Request-Timestamp': String(T) });
  });

  it('signs bytes that are not UTF-8 byte for byte', async () => {
    const signature = SCHEMES['keyed with timestampKey (Stripe)']!;
    const headers = await signWebhookPayload({ signature, rawBody: BINARY_BODY, secret: SECRET, now: NOW });
    expect(
      await verifyWebhookSignature({ signature, headers, rawBody: BINARY_BODY, secret: SECRET, now: NOW }),
    ).toEqual({ valid: true });
  });

  it("passes @octokit/webhooks-methods' verify (GitHub)", async () => {
    const headers = await signWebhookPayload({
      signature: SCHEMES['default (scheme omitted)']!,
      rawBody: PAYLOAD,
      secret: SECRET,
    });
    expect(await githubVerify(SECRET, PAYLOAD, headers['X-Hub-Signature-256']!)).toBe(true);
    expect(await githubVerify('other', PAYLOAD, headers['X-Hub-Signature-256']!)).toBe(false);
  });

  it("passes the stripe package's constructEvent", async () => {
    const stripe = new Stripe('sk_test_x');
    const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'invoice.paid' });
    const headers = await signWebhookPayload({
      signature: SCHEMES['keyed with timestampKey (Stripe)']!,
      rawBody: body,
      secret: 'whsec_test',
    });
    expect(stripe.webhooks.constructEvent(body, headers['Stripe-Signature']!, 'whsec_test').id).toBe('evt_1');
    expect(() => stripe.webhooks.constructEvent(body, headers['Stripe-Signature']!, 'whsec_other')).toThrow(
      /signature/i,
    );
  });

  it('refuses what cannot be signed: an empty secret, a keyed scheme without digestKey, a timestamp without source', async () => {
    const sign = (signature: Signature, secret = SECRET) =>
      signWebhookPayload({ signature, rawBody: PAYLOAD, secret });
    await expect(sign(SCHEMES['digest sha256']!, '')).rejects.toThrow('the signing secret is empty');
    await expect(sign({ header: 'X', secretName: 'S', scheme: { format: 'keyed' } })).rejects.toThrow(
      'no digestKey',
    );
    await expect(sign({ header: 'X', secretName: 'S', scheme: { toleranceSeconds: 5 } })).rejects.toThrow(
      'no timestamp source',
    );
  });
});
