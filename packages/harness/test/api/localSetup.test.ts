import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HarnessRegistryEntry } from '@platform/harness';
import { describe, expect, it } from 'vitest';
import { harness, send } from './_helpers.js';
import { acmeDefinition } from './_integration.js';

const entry: HarnessRegistryEntry = {
  slug: 'acme-notes',
  name: 'Acme Notes',
  description: 'Notes',
  widgets: [],
  definition: acmeDefinition(),
  live: {},
};
const path = '/api/integrations/acme-notes/local-setup';

describe('harness local-setup', () => {
  it('names the credentials the entry needs and which are set, never the values', async () => {
    const { handlers, projectDir } = await harness([entry]);
    await mkdir(join(projectDir, '.platform'));
    await writeFile(
      join(projectDir, '.platform/local-secrets.json'),
      JSON.stringify({ ACME_CLIENT_ID: 'client-id-value', OTHER: 'other-value' }),
    );
    const answer = await send(handlers, 'GET', path);
    expect(answer.body).toEqual({
      ok: true,
      data: {
        file: '.platform/local-secrets.json',
        live: true,
        credentials: [
          { name: 'ACME_CLIENT_ID', kind: 'oauth_client_id', set: true },
          { name: 'ACME_CLIENT_SECRET', kind: 'oauth_client_secret', set: false },
          {
            name: 'ACME_WEBHOOK_SECRET',
            kind: 'webhook_signing_secret',
            webhookId: 'note-changed',
            set: false,
          },
        ],
        otherNames: ['OTHER'],
      },
    });
    expect(JSON.stringify(answer.body)).not.toContain('value');
  });

  it('writes .platform/local-secrets.json with mode 0600, merging and removing names, logging names only', async () => {
    const { handlers, projectDir, lines } = await harness([entry]);
    const first = await send(handlers, 'POST', path, {
      body: { secrets: { ACME_CLIENT_ID: 'id-1', ACME_CLIENT_SECRET: 'secret-1' } },
    });
    expect(first.status).toBe(200);
    expect(first.body.data.credentials.map((c: { set: boolean }) => c.set)).toEqual([true, true, false]);
    const file = join(projectDir, '.platform/local-secrets.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    await send(handlers, 'POST', path, {
      body: { secrets: { ACME_WEBHOOK_SECRET: 'whsec', ACME_CLIENT_ID: null } },
    });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      ACME_CLIENT_SECRET: 'secret-1',
      ACME_WEBHOOK_SECRET: 'whsec',
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // No temporary file is left behind by the atomic write.
    expect(await readdir(join(projectDir, '.platform'))).toEqual(['local-secrets.json']);
    expect(lines.filter((line) => line.includes('local-secrets'))).toEqual([
      '[harness] .platform/local-secrets.json: set ACME_CLIENT_ID, ACME_CLIENT_SECRET',
      '[harness] .platform/local-secrets.json: set ACME_WEBHOOK_SECRET; removed ACME_CLIENT_ID',
    ]);
    expect(lines.join('\n')).not.toMatch(/id-1|secret-1|whsec/);
  });

  it('never loses a name when writes race', async () => {
    const { handlers, projectDir } = await harness([entry]);
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        send(handlers, 'POST', path, { body: { secrets: { [`NAME_${index}`]: `v${index}` } } }),
      ),
    );
    const stored = JSON.parse(await readFile(join(projectDir, '.platform/local-secrets.json'), 'utf8'));
    expect(Object.keys(stored).sort()).toEqual(
      Array.from({ length: 12 }, (_, index) => `NAME_${index}`).sort(),
    );
  });

  it('refuses a malformed body with 400 invalid_input saying what is wrong', async () => {
    const { handlers, projectDir } = await harness([entry]);
    const cases: [unknown, string][] = [
      ['{nope', 'The body is not JSON'],
      [[], 'must be a JSON object'],
      [{ secrets: 'x' }, '"secrets" must be an object'],
      [{ secrets: {} }, '"secrets" is empty'],
      [{ secrets: { 'bad name': 'x' } }, '"bad name" is not a secret name'],
      [{ secrets: { GOOD: 42 } }, 'secrets.GOOD must be a string or null'],
      [{ secrets: { GOOD: '' } }, 'secrets.GOOD is empty'],
      [{ secrets: { GOOD: 'x' }, extra: 1 }, 'unknown field "extra"'],
    ];
    for (const [body, message] of cases) {
      const answer = await send(handlers, 'POST', path, { body: typeof body === 'string' ? body : body });
      expect(answer.status, message).toBe(400);
      expect(answer.body.error.code).toBe('invalid_input');
      expect(answer.body.error.message).toContain(message);
    }
    await expect(stat(join(projectDir, '.platform/local-secrets.json'))).rejects.toThrow();
  });

  it('answers 500 naming the file, never its content, when local-secrets.json is not JSON', async () => {
    const { handlers, projectDir, lines } = await harness([entry]);
    await mkdir(join(projectDir, '.platform'));
    await writeFile(join(projectDir, '.platform/local-secrets.json'), '{"ACME_CLIENT_ID": "leaky-value"');
    const answer = await send(handlers, 'GET', path);
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('internal_error');
    expect(answer.body.error.message).toMatch(
      /local-secrets\.json is not valid JSON; fix the file or delete it\.$/,
    );
    expect(JSON.stringify(answer.body) + lines.join('\n')).not.toContain('leaky-value');
  });
});
