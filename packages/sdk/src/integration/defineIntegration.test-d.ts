import {
  type AnyIntegrationDefinition,
  defineIntegration,
  type IntegrationContext,
  type PartnerActionDeclaration,
  type WebhookReply,
  type WebhookRequest,
} from '@platform/sdk/integration';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';

describe('defineIntegration types', () => {
  it('types ctx.storage from the declared schemas, zod 3 and zod 4 alike', () => {
    defineIntegration({
      slug: 'acme-notes',
      storage: {
        account: { settings: z.object({ workspace: z.string() }), 'cache/notes': z3.array(z3.string()) },
        user: { preferences: z.object({ dark: z.boolean() }) },
      },
      actions: {
        read: {
          description: 'read',
          input: z.object({}),
          handler: async (ctx) => {
            expectTypeOf(await ctx.storage.account.get('settings')).toEqualTypeOf<
              { workspace: string } | undefined
            >();
            expectTypeOf(await ctx.storage.account.get('cache/notes')).toEqualTypeOf<string[] | undefined>();
            expectTypeOf(await ctx.storage.user.get('preferences')).toEqualTypeOf<
              { dark: boolean } | undefined
            >();
            // @ts-expect-error an undeclared key is a type error
            await ctx.storage.account.get('activation');
            // @ts-expect-error a user key is not an account key
            await ctx.storage.account.get('preferences');
            // @ts-expect-error the value must match the key's schema
            await ctx.storage.account.set('settings', { workspace: 1 });
            await ctx.storage.account.set('settings', { workspace: 'w' });
            expectTypeOf(
              await ctx.storage.account.update('cache/notes', (notes) => {
                expectTypeOf(notes).toEqualTypeOf<string[] | undefined>();
                return [...(notes ?? []), 'n'];
              }),
            ).toEqualTypeOf<string[] | undefined>();
            await ctx.storage.user.update('preferences', async () => undefined);
            // @ts-expect-error update's fn returns a value of the key's schema
            await ctx.storage.account.update('settings', () => ({ workspace: 1 }));
            expectTypeOf(ctx.checkpoint).toEqualTypeOf<() => Promise<void>>();
            return null;
          },
        },
      },
    });
  });

  it('has no storage keys when none are declared', () => {
    defineIntegration({
      slug: 'bare',
      onActivate: async (ctx) => {
        // @ts-expect-error nothing is declared
        await ctx.storage.account.get('settings');
      },
    });
  });

  it('types action input and output from the action schemas', () => {
    const definition = defineIntegration({
      slug: 'acme-notes',
      actions: {
        'create-note': {
          description: 'Create a note',
          input: z.object({ title: z.string(), body: z.string().optional() }),
          output: z.object({ id: z.string() }),
          handler: async (_ctx, input) => {
            expectTypeOf(input).toEqualTypeOf<{ title: string; body?: string | undefined }>();
            return { id: input.title };
          },
        },
        'count-notes': {
          description: 'zod 3 input, no output schema',
          input: z3.object({ folder: z3.number() }),
          handler: (_ctx, input) => {
            expectTypeOf(input).toEqualTypeOf<{ folder: number }>();
            return input.folder;
          },
        },
        'bad-output': {
          description: 'returns the wrong shape',
          input: z.object({}),
          output: z.object({ id: z.string() }),
          // @ts-expect-error the result must match the output schema
          handler: async () => ({ id: 1 }),
        },
      },
    });
    type Actions = NonNullable<typeof definition.actions>;
    expectTypeOf<Actions['create-note']['output']>().toEqualTypeOf<z.ZodObject<{ id: z.ZodString }>>();
    expectTypeOf<Actions['count-notes']['input']>().toEqualTypeOf<
      z3.ZodObject<{ folder: z3.ZodNumber }, 'strip'>
    >();
    // @ts-expect-error only declared actions exist
    expectTypeOf<Actions['delete-note']>();
  });

  it('types webhook payloads and tool inputs', () => {
    defineIntegration({
      slug: 'acme-notes',
      webhooks: [
        {
          id: 'note-created',
          payloadSchema: z.object({ noteId: z.string() }),
          handler: async (ctx, payload) => {
            expectTypeOf(payload).toEqualTypeOf<{ noteId: string }>();
            expectTypeOf(ctx.actor.kind).toEqualTypeOf<'user' | 'machine'>();
          },
        },
      ],
      tools: [
        {
          name: 'search_notes',
          description: 'Search',
          input: z.object({ q: z.string() }),
          handler: async (_ctx, input) => {
            expectTypeOf(input).toEqualTypeOf<{ q: string }>();
            return [];
          },
        },
      ],
    });
  });

  it("types a webhook handler's request and its reply's payload and request", () => {
    defineIntegration({
      slug: 'acme-notes',
      storage: { account: { cursor: z.string() } },
      webhooks: [
        {
          id: 'slack-events',
          payloadSchema: z.object({ type: z.string(), challenge: z.string().optional() }),
          reply: (payload, request) => {
            expectTypeOf(payload).toEqualTypeOf<{ type: string; challenge?: string | undefined }>();
            expectTypeOf(request).toEqualTypeOf<WebhookRequest>();
            expectTypeOf(request.headers).toEqualTypeOf<Readonly<Record<string, string>>>();
            return payload.challenge === undefined ? undefined : { body: { challenge: payload.challenge } };
          },
          handler: async (ctx, payload, request) => {
            expectTypeOf(payload.type).toEqualTypeOf<string>();
            expectTypeOf(request.rawBody).toEqualTypeOf<string>();
            expectTypeOf(request.contentType).toEqualTypeOf<string | undefined>();
            await ctx.storage.account.set('cursor', request.headers['x-github-event'] ?? '');
          },
        },
        {
          id: 'async-reply',
          payloadSchema: z3.object({ n: z3.number() }),
          reply: async (payload) => {
            expectTypeOf(payload).toEqualTypeOf<{ n: number }>();
            return { status: 202 } satisfies WebhookReply;
          },
          handler: async () => {},
        },
      ],
    });
    defineIntegration({
      slug: 'acme-notes',
      webhooks: [
        {
          id: 'bad-reply',
          payloadSchema: z.object({}),
          // @ts-expect-error a reply returns a WebhookReply or undefined
          reply: () => 'challenge',
          handler: async () => {},
        },
      ],
    });
  });

  it('exports PartnerActionDeclaration for actions written apart from the definition', () => {
    const Input = z.object({ id: z.string() });
    const Output = z.object({ ok: z.boolean() });
    const action: PartnerActionDeclaration<typeof Input, typeof Output> = {
      description: 'Archive',
      input: Input,
      output: Output,
      handler: async (_ctx, input) => {
        expectTypeOf(input).toEqualTypeOf<{ id: string }>();
        return { ok: true };
      },
    };
    const definition = defineIntegration({ slug: 'acme', actions: { archive: action } });
    expectTypeOf(definition).toExtend<AnyIntegrationDefinition>();
  });

  it('gives an untyped context its loose default', () => {
    expectTypeOf<IntegrationContext['storage']['account']['get']>().parameter(0).toEqualTypeOf<string>();
  });
});
