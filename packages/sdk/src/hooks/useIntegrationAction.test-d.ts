import {
  fetchIntegrationStorage,
  type IntegrationActionError,
  type IntegrationActionInput,
  type IntegrationActionOutput,
  useIntegrationAction,
} from '@platform/sdk/hooks';
import { defineIntegration } from '@platform/sdk/integration';
import type { ActionErrorCode } from '@platform/sdk/runtime';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';

const definition = defineIntegration({
  slug: 'acme-notes',
  actions: {
    'create-note': {
      description: 'Create a note',
      input: z.object({ title: z.string(), pinned: z.boolean().default(false) }),
      output: z.object({ id: z.string(), createdAt: z.string().transform((value) => new Date(value)) }),
      handler: async (_ctx, input) => ({ id: input.title, createdAt: '2026-01-01' }),
    },
    'count-notes': {
      description: 'zod 3 input, no output schema',
      input: z3.object({ folder: z3.number() }),
      handler: async () => 3,
    },
  },
});

describe('useIntegrationAction types', () => {
  it('infers input and output from the definition’s action schemas', () => {
    const mutation = useIntegrationAction<typeof definition, 'create-note'>('acme-notes', 'create-note', {
      accountId: 'a1',
    });
    // Input is what the schema accepts (a defaulted field is optional); output what it gives.
    expectTypeOf(mutation.mutate)
      .parameter(0)
      .toEqualTypeOf<{ title: string; pinned?: boolean | undefined }>();
    expectTypeOf(mutation.data).toEqualTypeOf<{ id: string; createdAt: Date } | undefined>();
    expectTypeOf(mutation.error).toEqualTypeOf<IntegrationActionError | null>();
    // @ts-expect-error the input must match the action's input schema
    mutation.mutate({ title: 1 });
  });

  it('types an action without an output schema as unknown, and zod 3 input alike', () => {
    const mutation = useIntegrationAction<typeof definition, 'count-notes'>('acme-notes', 'count-notes', {
      accountId: 'a1',
    });
    expectTypeOf(mutation.mutate).parameter(0).toEqualTypeOf<{ folder: number }>();
    expectTypeOf(mutation.data).toEqualTypeOf<unknown>();
  });

  it('refuses an action the definition does not declare', () => {
    // @ts-expect-error only declared actions can be named
    useIntegrationAction<typeof definition, 'delete-note'>('acme-notes', 'delete-note', { accountId: 'a1' });
  });

  it('exposes the inferred types as helpers', () => {
    expectTypeOf<IntegrationActionInput<typeof definition, 'count-notes'>>().toEqualTypeOf<{
      folder: number;
    }>();
    expectTypeOf<IntegrationActionOutput<typeof definition, 'create-note'>>().toEqualTypeOf<{
      id: string;
      createdAt: Date;
    }>();
  });

  it('takes explicit input and output types without a definition', () => {
    const mutation = useIntegrationAction<{ id: string }, { ok: boolean }>('acme-notes', 'archive', {
      accountId: 'a1',
    });
    expectTypeOf(mutation.mutate).parameter(0).toEqualTypeOf<{ id: string }>();
    expectTypeOf(mutation.data).toEqualTypeOf<{ ok: boolean } | undefined>();
    const untyped = useIntegrationAction('acme-notes', 'archive', { accountId: 'a1' });
    expectTypeOf(untyped.data).toEqualTypeOf<unknown>();
  });

  it('needs an account', () => {
    // @ts-expect-error accountId is required
    useIntegrationAction('acme-notes', 'archive', {});
  });
});

describe('fetchIntegrationStorage types', () => {
  it('indexes the result by the requested keys', async () => {
    const values = await fetchIntegrationStorage('acme-notes', {
      accountId: 'a1',
      keys: ['settings', 'cache/notes'],
    });
    expectTypeOf(values).toEqualTypeOf<{ settings: unknown; 'cache/notes': unknown }>();
    // @ts-expect-error only requested keys are there
    values.activation;
  });
});

describe('IntegrationActionError codes', () => {
  it('know the route codes, conflict among them', () => {
    expectTypeOf<ActionErrorCode>().toEqualTypeOf<
      'action_not_found' | 'invalid_input' | 'rate_limited' | 'conflict' | 'handler_error'
    >();
  });
});
