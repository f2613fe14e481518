import { generate } from 'selfsigned';

/**
 * A self-signed certificate (its own CA) for `localhost` and `127.0.0.1`: what the loopback HTTPS
 * servers of the tests present, and what a client trusts as their CA.
 * @example const { key, cert } = await loopbackCertificate(); createServer({ key, cert });
 */
export async function loopbackCertificate(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
