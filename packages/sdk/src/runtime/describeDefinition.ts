import {
  toolInputSchema,
  toolOutputSchema,
  toolOutputSchemaProblem,
  type WebhookSignature,
} from '@platform/integration-schema';
import type {
  AnyIntegrationDefinition,
  ConnectionDeclaration,
  Proposes,
  WidgetDeclaration,
} from '../integration/types.js';
import { type PayloadShape, payloadShapeOf } from './payloadShape.js';

/**
 * The data part of a definition, JSON only: what the host stores with a version and reads for
 * its own checks (egress, OAuth, storage keys, routes) without running partner code.
 */
export interface DefinitionManifest {
  readonly slug: string;
  readonly egress: readonly string[];
  readonly actions: readonly { readonly name: string; readonly description: string }[];
  readonly webhooks: readonly {
    readonly id: string;
    readonly description?: string;
    readonly signature?: WebhookSignature;
    /** Declares a synchronous `reply` (absent in manifests stored before 0.5: no reply). */
    readonly hasReply?: boolean;
    /**
     * The payloadSchema restated as data when it can be, exactly or more strictly (`payloadShape.ts`):
     * ingress accepts a body that fits it without entering the isolate. Written by partner code, so
     * the host reads it with `readPayloadShape`; absent when the schema cannot be stated this way.
     */
    readonly payloadShape?: PayloadShape;
  }[];
  readonly schedules: readonly {
    readonly id: string;
    readonly cron: string;
    readonly description?: string;
  }[];
  readonly tools: readonly {
    readonly name: string;
    readonly description: string;
    /** Has a handler, so a model can call it (absent in manifests stored before tools ran: read as false). */
    readonly hasHandler?: boolean;
    /**
     * The input as JSON Schema (`toolSchemas.ts`), what `tools/list` shows a model; absent when
     * the schema states none (then `inputSchemaProblem` says why). Written by partner code: the
     * host reads it with `readManifest`, which caps its size.
     */
    readonly inputSchema?: Readonly<Record<string, unknown>>;
    readonly inputSchemaProblem?: string;
    /**
     * The declared `output` as JSON Schema (output side), what `tools/list` shows as
     * `outputSchema`; absent when the tool declares none or it cannot be one (then
     * `outputSchemaProblem` says why). Read like `inputSchema`.
     */
    readonly outputSchema?: Readonly<Record<string, unknown>>;
    readonly outputSchemaProblem?: string;
  }[];
  readonly widgets: readonly Omit<WidgetDeclaration, 'component'>[];
  /**
   * The widgets' grid rectangles per breakpoint, as declared; the host's dashboard places them
   * with `@platform/wire`'s `placeWidgets` (absent in manifests stored before the dashboard).
   */
  readonly layouts?: AnyIntegrationDefinition['layouts'];
  readonly storage: { readonly account: readonly string[]; readonly user: readonly string[] };
  /**
   * The JSON Schema (draft 2020-12, input side) of each storage key whose schema can state one
   * (Standard JSON Schema, as zod 4 does); the host's promotion review compares them.
   */
  readonly storageShapes?: {
    readonly account: Readonly<Record<string, unknown>>;
    readonly user: Readonly<Record<string, unknown>>;
  };
  readonly oauth?: {
    readonly provider: {
      readonly authorizationUrl: string;
      readonly tokenUrl: string;
      readonly scopes: readonly string[];
      readonly pkce: boolean;
      readonly tokenAuthMethod: 'client_secret_basic' | 'client_secret_post';
    };
    readonly credentials: { readonly clientIdSecretName: string; readonly clientSecretSecretName: string };
  };
  /** The definition's `connection` (apiKey or basic), as declared. */
  readonly connection?: ConnectionDeclaration;
  readonly proposes?: Proposes;
  readonly hasOnActivate: boolean;
}

/**
 * Extracts the {@link DefinitionManifest} of a definition.
 * @example const manifest = describeDefinition(definition); // stored beside the version's bundle
 */
export function describeDefinition(definition: AnyIntegrationDefinition): DefinitionManifest {
  const oauth = definition.oauth;
  return JSON.parse(
    JSON.stringify({
      slug: definition.slug,
      egress: definition.egress ?? [],
      actions: Object.entries(definition.actions ?? {}).map(([name, action]) => ({
        name,
        description: action.description,
      })),
      webhooks: (definition.webhooks ?? []).map(({ id, description, signature, reply, payloadSchema }) => ({
        id,
        description,
        signature,
        hasReply: typeof reply === 'function',
        payloadShape: payloadShapeOf(payloadSchema),
      })),
      schedules: (definition.schedules ?? []).map(({ id, cron, description }) => ({ id, cron, description })),
      tools: (definition.tools ?? []).map(({ name, description, input, output, handler }) => {
        const shape = toolInputSchema(input);
        return {
          name,
          description,
          hasHandler: typeof handler === 'function',
          ...(shape.ok ? { inputSchema: shape.schema } : { inputSchemaProblem: shape.reason }),
          ...(output === undefined ? {} : outputSchemaOf(output)),
        };
      }),
      widgets: (definition.components?.widgets ?? []).map(({ component: _component, ...widget }) => widget),
      layouts: definition.layouts,
      storage: {
        account: Object.keys(definition.storage?.account ?? {}),
        user: Object.keys(definition.storage?.user ?? {}),
      },
      storageShapes: {
        account: shapesOf(definition.storage?.account),
        user: shapesOf(definition.storage?.user),
      },
      oauth:
        oauth === undefined
          ? undefined
          : {
              provider: {
                authorizationUrl: oauth.provider.authorizationUrl,
                tokenUrl: oauth.provider.tokenUrl,
                scopes: oauth.provider.scopes,
                pkce: oauth.provider.pkce ?? false,
                tokenAuthMethod: oauth.provider.tokenAuthMethod ?? 'client_secret_basic',
              },
              credentials: oauth.credentials,
            },
      connection: definition.connection,
      proposes: definition.proposes,
      hasOnActivate: typeof definition.onActivate === 'function',
    }),
  ) as DefinitionManifest;
}

interface JsonSchemaCapable {
  readonly '~standard'?: { readonly jsonSchema?: { input?: (options: { target: string }) => unknown } };
}

// The JSON Schema of each key whose schema states one; a schema that cannot is left out.
function shapesOf(scope: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const shapes: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(scope ?? {})) {
    try {
      const shape = (schema as JsonSchemaCapable)['~standard']?.jsonSchema?.input?.({
        target: 'draft-2020-12',
      });
      if (shape !== undefined) shapes[key] = shape;
    } catch {
      // Not every schema can be stated as JSON Schema (transforms, custom checks): no shape then.
    }
  }
  return shapes;
}

// A declared output as MCP can carry it (a root object), or why it cannot be.
function outputSchemaOf(
  output: unknown,
): { outputSchema: Record<string, unknown> } | { outputSchemaProblem: string } {
  const shape = toolOutputSchema(output);
  if (!shape.ok) return { outputSchemaProblem: shape.reason };
  const problem = toolOutputSchemaProblem(shape.schema);
  return problem === undefined ? { outputSchema: shape.schema } : { outputSchemaProblem: problem };
}
