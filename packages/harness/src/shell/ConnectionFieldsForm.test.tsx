// @vitest-environment happy-dom
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asHarnessDefinition, defineHarnessConfig } from '@platform/harness';
import { createHarnessApiHandlers, type LiveFetch } from '@platform/harness/api';
import { HarnessShell } from '@platform/harness/shell';
import type { FetchFunction } from '@platform/sdk/hooks';
import { defineIntegration } from '@platform/sdk/integration';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const API = 'https://api.acme-keys.test';

const registry = defineHarnessConfig([
  {
    slug: 'acme-keys',
    name: 'Acme Keys',
    description: 'An API-key vendor.',
    widgets: [],
    definition: asHarnessDefinition(
      defineIntegration({
        slug: 'acme-keys',
        egress: [API],
        connection: {
          kind: 'apiKey',
          fields: [
            { name: 'apiKey', label: 'API key', secret: true },
            { name: 'region', label: 'Region', secret: false },
          ],
          header: 'Bearer {apiKey}',
          verify: { method: 'GET', url: `${API}/v1/me` },
        },
      }),
    ),
    live: { seeds: [] },
  },
]);

let projectDir: string;
let server: FetchFunction;
const verified: string[] = [];

beforeEach(async () => {
  projectDir = await mkdtemp(join(tmpdir(), 'harness-connection-'));
  verified.length = 0;
  // The vendor: accepts one key.
  const liveFetch: LiveFetch = async (request) => {
    const authorization = request.headers.find(([name]) => name === 'authorization')?.[1] ?? '';
    verified.push(authorization);
    const ok = authorization === 'Bearer right-key';
    return {
      status: ok ? 200 : 401,
      statusText: ok ? 'OK' : 'Unauthorized',
      headers: [['content-type', 'application/json']],
      body: Buffer.from(JSON.stringify(ok ? { user: 'bot' } : { error: 'bad key' })).toString('base64'),
    };
  };
  const handlers = createHarnessApiHandlers(registry, { projectDir, env: {}, log: () => {}, liveFetch });
  server = (input, init) => handlers.fetch(input instanceof Request ? input : new Request(input, init));
  window.history.replaceState(null, '', '/');
  window.sessionStorage.clear();
});

afterEach(async () => {
  await rm(projectDir, { recursive: true, force: true });
});

describe('Activation surface: an apiKey connection in live mode', () => {
  it('enters the fields, shows a failed verify, then saves verified ones without showing them', async () => {
    window.history.replaceState(null, '', '/acme-keys/activation');
    render(<HarnessShell registry={registry} fetch={server} />);
    act(() => {
      fireEvent.change(screen.getByLabelText('Data mode'), { target: { value: 'live' } });
    });
    const key = (await screen.findByLabelText(/API key/)) as HTMLInputElement;
    expect(key.type).toBe('password');
    const region = screen.getByLabelText(/Region/) as HTMLInputElement;
    expect(region.type).toBe('text');
    expect(screen.getByTestId('field-connection-status').textContent).toContain('Not connected');

    fireEvent.change(key, { target: { value: 'wrong-key' } });
    fireEvent.change(region, { target: { value: 'eu' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and save' }));
    expect(await screen.findByText(/The vendor refused the fields: GET \/v1\/me answered 401/)).toBeTruthy();
    expect(verified).toEqual(['Bearer wrong-key']);

    fireEvent.change(key, { target: { value: 'right-key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and save' }));
    expect(await screen.findByText('Verified and saved.')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByTestId('field-connection-status').textContent).toContain('Connected'),
    );
    expect(key.value).toBe('');
    expect(document.body.textContent).not.toContain('right-key');
    expect(screen.getByRole('button', { name: 'Verify and replace' })).toBeTruthy();
  });
});
