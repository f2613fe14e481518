import { describe, expect, it } from 'vitest';

// Partners' action tests run in Node without a DOM; the testing entry must load there although it
// also holds the React mock fetch provider.
describe('@platform/sdk/testing without a DOM', () => {
  it('loads and builds a mock context and a mock fetch', async () => {
    expect(typeof document).toBe('undefined');
    const testing = await import('@platform/sdk/testing');
    const { defineIntegration } = await import('@platform/sdk/integration');
    const ctx = testing.createMockContext(defineIntegration({ slug: 'acme-notes' }));
    expect(ctx.actor.kind).toBe('user');
    const mock = testing.createMockFetchProvider({
      handlers: [{ match: 'GET /ping', respond: () => new Response('pong') }],
    });
    expect(await (await mock.fetch('/ping')).text()).toBe('pong');
    expect(mock.calls[0]?.url).toBe('http://localhost/ping');
  });
});
