import type { StandardSchemaV1 } from '@platform/integration-schema';
import { createVendorClient, defineIntegration, PublicActionError } from '@platform/sdk/integration';
import {
  ACTION_ERROR_STATUS,
  actionErrorResponse,
  actionErrorStatus,
  invokeAction,
} from '@platform/sdk/runtime';
import { createMockContext } from '@platform/sdk/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';

type Schema<T> = StandardSchemaV1<T>;
interface Schemas {
  readonly settings: Schema<{ prefix: string }>;
  readonly title: Schema<{ title: string }>;
  readonly note: Schema<{ id: string; title: string }>;
  readonly empty: Schema<Record<string, never>>;
  readonly id: Schema<{ id: string }>;
  readonly n: Schema<{ n: number }>;
}

const majors: { name: string; schemas: Schemas }[] = [
  {
    name: 'zod 4',
    schemas: {
      settings: z.object({ prefix: z.string() }),
      title: z.object({ title: z.string().min(1) }),
      note: z.object({ id: z.string(), title: z.string() }),
      empty: z.object({}),
      id: z.object({ id: z.string() }),
      n: z.object({ n: z.number() }),
    },
  },
  {
    name: 'zod 3',
    schemas: {
      settings: z3.object({ prefix: z3.string() }),
      title: z3.object({ title: z3.string().min(1) }),
      note: z3.object({ id: z3.string(), title: z3.string() }),
      empty: z3.object({}),
      id: z3.object({ id: z3.string() }),
      n: z3.object({ n: z3.number() }),
    },
  },
];

describe.each(majors)('invokeAction with $name schemas', ({ schemas }) => {
  const definition = defineIntegration({
    slug: 'acme-notes',
    storage: { account: { settings: schemas.settings } },
    actions: {
      'create-note': {
        description: 'Create a note',
        input: schemas.title,
        output: schemas.note,
        handler: async (ctx, input) => {
          const settings = await ctx.storage.account.get('settings');
          return { id: 'n1', title: `${settings?.prefix ?? ''}${input.title}` };
        },
      },
      'bad-output': {
        description: 'Returns the wrong shape',
        input: schemas.empty,
        output: schemas.id,
        handler: async () => ({ id: 42 }) as never,
      },
      'public-failure': {
        description: 'Throws a public error',
        input: schemas.empty,
        handler: async () => {
          throw new PublicActionError('That note was archived. Restore it first.');
        },
      },
      'private-failure': {
        description: 'Throws an ordinary error',
        input: schemas.empty,
        handler: async () => {
          throw new Error('db password=hunter2 at https://internal.acme.com/x?token=abc');
        },
      },
      'no-output': {
        description: 'Returns nothing',
        input: schemas.n,
        handler: async () => undefined,
      },
    },
  });

  it('returns the validated output on success', async () => {
    const ctx = createMockContext(definition, { storage: { account: { settings: { prefix: '> ' } } } });
    const envelope = await invokeAction(definition, 'create-note', '{"title":"Hi"}', ctx, {
      mode: 'production',
    });
    expect(envelope).toEqual({ ok: true, data: { id: 'n1', title: '> Hi' } });
  });

  it('answers action_not_found for an unknown action, naming the declared ones', async () => {
    const ctx = createMockContext(definition);
    const envelope = await invokeAction(definition, 'delete-note', '{}', ctx, { mode: 'production' });
    expect(envelope).toMatchObject({ ok: false, error: { code: 'action_not_found' } });
    if (!envelope.ok) expect(envelope.error.message).toContain('create-note');
    expect(ACTION_ERROR_STATUS.action_not_found).toBe(404);
  });

  it('does not treat inherited object keys as actions', async () => {
    const ctx = createMockContext(definition);
    for (const name of ['toString', '__proto__', 'constructor']) {
      const envelope = await invokeAction(definition, name, '{}', ctx, { mode: 'production' });
      expect(envelope).toMatchObject({ ok: false, error: { code: 'action_not_found' } });
    }
  });

  it('answers invalid_input with an issue for a body that is not JSON', async () => {
    const ctx = createMockContext(definition);
    const envelope = await invokeAction(definition, 'create-note', '{title:', ctx, { mode: 'production' });
    expect(envelope).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', issues: [{ code: 'invalid_json', path: [] }] },
    });
  });

  it('answers invalid_input with the schema issues for a body that fails input', async () => {
    const ctx = createMockContext(definition);
    const envelope = await invokeAction(definition, 'create-note', '{"title":""}', ctx, {
      mode: 'production',
    });
    expect(envelope.ok).toBe(false);
    if (envelope.ok) return;
    expect(envelope.error.code).toBe('invalid_input');
    expect(envelope.error.issues).toHaveLength(1);
    expect(envelope.error.issues?.[0]).toMatchObject({ code: 'too_small', path: ['title'] });
    expect(JSON.parse(JSON.stringify(envelope))).toEqual(envelope);
  });

  it('answers handler_error "Action failed." when the result fails output, in both modes', async () => {
    const ctx = createMockContext(definition);
    const production = await invokeAction(definition, 'bad-output', '{}', ctx, { mode: 'production' });
    expect(production).toEqual({ ok: false, error: { code: 'handler_error', message: 'Action failed.' } });
    const harness = await invokeAction(definition, 'bad-output', '{}', ctx, { mode: 'harness' });
    expect(harness).toMatchObject({ ok: false, error: { code: 'handler_error', message: 'Action failed.' } });
    if (!harness.ok) expect(harness.error.devError?.message).toContain('output schema');
  });

  it('returns a PublicActionError message verbatim in production, never devError', async () => {
    const ctx = createMockContext(definition);
    const envelope = await invokeAction(definition, 'public-failure', '{}', ctx, { mode: 'production' });
    expect(envelope).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'That note was archived. Restore it first.', status: 400 },
    });
  });

  it('hides an ordinary error in production and logs it redacted', async () => {
    const ctx = createMockContext(definition);
    const envelope = await invokeAction(definition, 'private-failure', '{}', ctx, { mode: 'production' });
    expect(envelope).toEqual({ ok: false, error: { code: 'handler_error', message: 'Action failed.' } });
    const logged = ctx.mock.logs.find((entry) => entry.level === 'error');
    expect(logged?.message).toContain('https://internal.acme.com/x?...');
    expect(logged?.message).not.toContain('token=abc');
  });

  it('answers "Action failed." with devError for any throw in harness mode, PublicActionError included', async () => {
    const ctx = createMockContext(definition);
    const publicFailure = await invokeAction(definition, 'public-failure', '{}', ctx, { mode: 'harness' });
    expect(publicFailure).toMatchObject({
      ok: false,
      error: {
        code: 'handler_error',
        message: 'Action failed.',
        devError: { message: 'That note was archived. Restore it first.' },
      },
    });
    if (!publicFailure.ok) expect(publicFailure.error.devError?.stack).toContain('PublicActionError');
    const privateFailure = await invokeAction(definition, 'private-failure', '{}', ctx, { mode: 'harness' });
    expect(privateFailure).toMatchObject({ ok: false, error: { message: 'Action failed.' } });
    if (!privateFailure.ok) expect(privateFailure.error.devError?.message).not.toContain('token=abc');
  });

  it('sends null for a handler that returns nothing', async () => {
    const ctx = createMockContext(definition);
    expect(await invokeAction(definition, 'no-output', '{"n":1}', ctx, { mode: 'production' })).toEqual({
      ok: true,
      data: null,
    });
  });
});

describe('invokeAction edge cases', () => {
  it('reports a result JSON cannot carry as handler_error', async () => {
    const definition = defineIntegration({
      slug: 'acme',
      actions: { big: { description: 'BigInt', input: z.object({}), handler: async () => ({ n: 1n }) } },
    });
    const ctx = createMockContext(definition);
    const envelope = await invokeAction(definition, 'big', '{}', ctx, { mode: 'harness' });
    expect(envelope).toMatchObject({
      ok: false,
      error: { code: 'handler_error', message: 'Action failed.' },
    });
    if (!envelope.ok) expect(envelope.error.devError?.message).toContain('JSON');
  });

  it('passes the schema output (transforms and defaults) to the handler', async () => {
    const definition = defineIntegration({
      slug: 'acme',
      actions: {
        echo: {
          description: 'Echo',
          input: z.object({
            tags: z.string().transform((value) => value.split(',')),
            limit: z.number().default(10),
          }),
          handler: async (_ctx, input) => input,
        },
      },
    });
    const envelope = await invokeAction(definition, 'echo', '{"tags":"a,b"}', createMockContext(definition), {
      mode: 'production',
    });
    expect(envelope).toEqual({ ok: true, data: { tags: ['a', 'b'], limit: 10 } });
  });

  it('reports a thrown non-Error without crashing', async () => {
    const definition = defineIntegration({
      slug: 'acme',
      actions: {
        odd: {
          description: 'Throws a string',
          input: z.object({}),
          handler: async () => {
            throw 'plain string';
          },
        },
      },
    });
    const envelope = await invokeAction(definition, 'odd', '{}', createMockContext(definition), {
      mode: 'harness',
    });
    expect(envelope).toMatchObject({
      ok: false,
      error: { message: 'Action failed.', devError: { message: 'non-error thrown: "plain string"' } },
    });
  });
});

describe('PublicActionError status', () => {
  const definition = defineIntegration({
    slug: 'acme',
    egress: ['https://api.acme.test'],
    actions: {
      'connect-first': {
        description: 'Needs a connection',
        input: z.object({}),
        handler: async () => {
          throw new PublicActionError('Connect first', { status: 409 });
        },
      },
      forged: {
        description: 'An error named PublicActionError with a 5xx status (another copy, or a forgery)',
        input: z.object({}),
        handler: async () => {
          throw Object.assign(new Error('Forged'), { name: 'PublicActionError', status: 503 });
        },
      },
    },
  });

  it('is checked at construction: 400 by default, 4xx only', () => {
    expect(new PublicActionError('x').status).toBe(400);
    expect(new PublicActionError('x', { status: 422 }).status).toBe(422);
    for (const status of [500, 399, 200, 404.5, Number.NaN]) {
      expect(() => new PublicActionError('x', { status })).toThrow(
        `PublicActionError status must be an integer from 400 to 499 (a client error the caller can act on); got ${status}. Leave it out for 400.`,
      );
    }
    const cause = new Error('root');
    expect(new PublicActionError('x', { cause }).cause).toBe(cause);
  });

  it('travels in the envelope in both modes; the harness still says Action failed.', async () => {
    const ctx = createMockContext(definition);
    expect(await invokeAction(definition, 'connect-first', '{}', ctx, { mode: 'production' })).toEqual({
      ok: false,
      error: { code: 'handler_error', message: 'Connect first', status: 409 },
    });
    expect(await invokeAction(definition, 'connect-first', '{}', ctx, { mode: 'harness' })).toMatchObject({
      ok: false,
      error: {
        code: 'handler_error',
        message: 'Action failed.',
        status: 409,
        devError: { message: 'Connect first' },
      },
    });
  });

  it('falls back to 400 for a status outside 4xx', async () => {
    const envelope = await invokeAction(definition, 'forged', '{}', createMockContext(definition), {
      mode: 'production',
    });
    expect(envelope).toEqual({ ok: false, error: { code: 'handler_error', message: 'Forged', status: 400 } });
  });

  it('a route answers the 4xx of a handler_error only, and sends no status in the body', () => {
    expect(actionErrorStatus({ code: 'handler_error', status: 409 })).toBe(409);
    expect(actionErrorStatus({ code: 'handler_error' })).toBe(500);
    for (const forged of [503, 200, 302, 600, 404.5, '409' as never]) {
      expect(actionErrorStatus({ code: 'handler_error', status: forged })).toBe(500);
    }
    expect(actionErrorStatus({ code: 'invalid_input', status: 409 })).toBe(400);
    expect(actionErrorStatus({ code: 'no_such_code' as never })).toBe(500);
    expect(actionErrorStatus({ code: 'toString' as never })).toBe(500);
    expect(actionErrorResponse({ code: 'handler_error', message: 'Connect first', status: 409 })).toEqual({
      status: 409,
      body: { ok: false, error: { code: 'handler_error', message: 'Connect first' } },
    });
  });
});

describe('a vendor error in an action', () => {
  const definition = defineIntegration({
    slug: 'acme',
    egress: ['https://api.acme.test'],
    actions: {
      'create-issue': {
        description: 'The vendor refuses the request',
        input: z.object({}),
        handler: async (ctx) => {
          const acme = createVendorClient(ctx, { name: 'Acme', baseUrl: 'https://api.acme.test' });
          return acme.json('POST', '/issues', { json: { title: '' }, query: { access_token: 'tok-123' } });
        },
      },
    },
  });
  const refusing = () =>
    createMockContext(definition, {
      fetchHandlers: [
        {
          match: 'POST /issues',
          respond: () => Response.json({ message: 'Validation Failed', field: 'title' }, { status: 422 }),
        },
      ],
    });

  it("is logged with the vendor's status and message, token redacted; the caller gets Action failed.", async () => {
    const ctx = refusing();
    const envelope = await invokeAction(definition, 'create-issue', '{}', ctx, { mode: 'production' });
    expect(envelope).toEqual({ ok: false, error: { code: 'handler_error', message: 'Action failed.' } });
    const line = ctx.mock.logs.find((entry) => entry.level === 'error')?.message;
    expect(line).toBe(
      'action "create-issue" failed: VendorHttpError: Acme answered 422 Unprocessable Entity to POST https://api.acme.test/issues?...: {"message":"Validation Failed","field":"title"}',
    );
    expect(JSON.stringify(ctx.mock.logs)).not.toContain('tok-123');
  });

  it("shows the vendor's answer in the harness devError", async () => {
    const envelope = await invokeAction(definition, 'create-issue', '{}', refusing(), { mode: 'harness' });
    expect(envelope).toMatchObject({
      ok: false,
      error: {
        message: 'Action failed.',
        devError: {
          message:
            'Acme answered 422 Unprocessable Entity to POST https://api.acme.test/issues?...: {"message":"Validation Failed","field":"title"}',
        },
      },
    });
  });
});
