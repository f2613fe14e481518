import { type UseMutationResult, useMutation } from '@tanstack/react-query';
import type { AnySchema, SchemaInput, SchemaOutput } from '../integration/types.js';
import { requestRoute } from './_requestRoute.js';
import { IntegrationActionError } from './IntegrationActionError.js';
import { useIntegrationFetch } from './IntegrationFetchProvider.js';
import { type AccountOptions, integrationActionUrl } from './integrationActionUrl.js';

/** The part of a definition's type that action typing reads. */
export interface DefinitionWithActions {
  readonly slug: string;
  readonly actions?: { readonly [name: string]: { readonly input: AnySchema; readonly output?: AnySchema } };
}

/** The action names a definition declares. */
export type IntegrationActionName<D extends DefinitionWithActions> = keyof NonNullable<D['actions']> & string;

type ActionOf<D extends DefinitionWithActions, N extends string> = NonNullable<D['actions']>[N];

/**
 * What an action accepts: the input type of its `input` schema (before the route validates it).
 * @example type Input = IntegrationActionInput<typeof definition, 'create-note'>;
 */
export type IntegrationActionInput<D extends DefinitionWithActions, N extends IntegrationActionName<D>> =
  ActionOf<D, N> extends { readonly input: infer I extends AnySchema } ? SchemaInput<I> : never;

/**
 * What an action answers with: the output type of its `output` schema, or `unknown` when it
 * declares none (nothing checks the result then).
 * @example type Output = IntegrationActionOutput<typeof definition, 'create-note'>;
 */
export type IntegrationActionOutput<D extends DefinitionWithActions, N extends IntegrationActionName<D>> =
  ActionOf<D, N> extends { readonly output: infer O extends AnySchema } ? SchemaOutput<O> : unknown;

// When the first type argument is a definition but the name is not one of its actions, the first
// overload fails and this one would take the definition as an input type: naming the declared
// actions here turns that into the error it should be.
type NotADefinition<TInput> = TInput extends { readonly slug: string }
  ? 'actions' extends keyof TInput
    ? TInput extends DefinitionWithActions
      ? IntegrationActionName<TInput>
      : string
    : string
  : string;

/** `useIntegrationAction()`'s options. */
export type UseIntegrationActionOptions = AccountOptions;

/** The mutation `useIntegrationAction()` returns; every rejection is an `IntegrationActionError`. */
export type IntegrationActionMutation<TInput, TOutput> = UseMutationResult<
  TOutput,
  IntegrationActionError,
  TInput
>;

/**
 * Calls a declared action through the actions route as a react-query mutation (a
 * `QueryClientProvider` must be mounted; the host and the harness mount one). Requests go through
 * `useIntegrationFetch()`. Every rejection is an `IntegrationActionError`.
 *
 * Typed from a definition: pass its type and the action name as type arguments (`import type` keeps
 * the handlers out of the widget bundle); input and output are inferred from the action's schemas.
 * @example
 * import type definition from '../integration.js';
 * const createNote = useIntegrationAction<typeof definition, 'create-note'>('acme-notes', 'create-note', { accountId });
 * createNote.mutate({ title: 'Hello' }); // createNote.data: { id: string } | undefined
 */
export function useIntegrationAction<D extends DefinitionWithActions, N extends IntegrationActionName<D>>(
  slug: D['slug'],
  actionName: N,
  options: UseIntegrationActionOptions,
): IntegrationActionMutation<IntegrationActionInput<D, N>, IntegrationActionOutput<D, N>>;
/**
 * Calls an action with input and output types of your own.
 * @example const archive = useIntegrationAction<{ id: string }, { ok: boolean }>('acme-notes', 'archive', { accountId });
 */
export function useIntegrationAction<TInput = unknown, TOutput = unknown>(
  slug: string,
  actionName: NotADefinition<TInput>,
  options: UseIntegrationActionOptions,
): IntegrationActionMutation<TInput, TOutput>;
export function useIntegrationAction(
  slug: string,
  actionName: string,
  options: UseIntegrationActionOptions,
): IntegrationActionMutation<unknown, unknown> {
  const fetchFn = useIntegrationFetch();
  return useMutation<unknown, IntegrationActionError, unknown>({
    mutationKey: ['@platform/integration-action', slug, actionName, options.accountId],
    mutationFn: async (input) => {
      const what = `Action "${actionName}" of "${slug}"`;
      let body: string;
      try {
        body = JSON.stringify(input === undefined ? null : input);
      } catch (cause) {
        throw new IntegrationActionError({
          code: 'invalid_input',
          status: 0,
          message: `${what} was not sent: its input cannot be written as JSON (${(cause as Error).message}).`,
          issues: [{ code: 'invalid_json', path: [], message: (cause as Error).message }],
          cause,
        });
      }
      const result = await requestRoute(
        fetchFn,
        integrationActionUrl(slug, actionName, options),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body,
          credentials: 'same-origin',
        },
        what,
      );
      if (!result.ok) throw new IntegrationActionError(result.error);
      return result.data;
    },
  });
}
