import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** AES-256-GCM for secrets at rest; `context` (integration, tier, owner, name) is bound as AAD so a row cannot be moved. */
export interface SecretBox {
  encrypt(plaintext: string, context: string): string;
  decrypt(ciphertext: string, context: string): string;
}

const VERSION = 'v1';

/**
 * A SecretBox over a 32-byte key.
 * @example const box = createSecretBox(await loadSecretKey({ dataDir: '.platform-host' }));
 */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error(`the secret key must be 32 bytes, got ${key.length}`);
  return {
    encrypt(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [
        VERSION,
        iv.toString('base64'),
        cipher.getAuthTag().toString('base64'),
        body.toString('base64'),
      ].join('.');
    },
    decrypt(ciphertext, context) {
      const [version, iv, tag, body] = ciphertext.split('.');
      if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
        throw new Error('stored secret has an unknown format');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * The key from `PLATFORM_SECRET_KEY` (32 bytes as base64 or hex), else the one generated into
 * `<dataDir>/secret.key` (mode 0600) on first start, else (no data folder) a fresh random key.
 * @example const key = await loadSecretKey({ env: process.env, dataDir: '.platform-host' });
 */
export async function loadSecretKey(options: {
  env?: Record<string, string | undefined>;
  dataDir?: string | undefined;
}): Promise<Buffer> {
  const fromEnv = options.env?.PLATFORM_SECRET_KEY;
  if (fromEnv) {
    const key = /^[0-9a-f]{64}$/i.test(fromEnv)
      ? Buffer.from(fromEnv, 'hex')
      : Buffer.from(fromEnv, 'base64');
    if (key.length !== 32) {
      throw new Error(
        'PLATFORM_SECRET_KEY must be 32 bytes as base64 or 64 hex characters; generate one with `openssl rand -base64 32`',
      );
    }
    return key;
  }
  if (options.dataDir === undefined) return randomBytes(32);
  const file = join(options.dataDir, 'secret.key');
  try {
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(options.dataDir, { recursive: true });
  const key = randomBytes(32);
  await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
  return key;
}
