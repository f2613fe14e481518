import type { ToolDescriptor } from './toolDescriptors.js';

const PROMPT_ARGS_CHARS = 600;

/**
 * The question a person is asked before a tool that needs confirmation runs: the integration, the
 * tool, the arguments (cut after 600 characters) and what it does; a destructive tool's says it
 * cannot be undone. The host's `/mcp`, the harness's `/mcp` and its Tools surface show this text.
 * @example toolConfirmationPrompt(tool, { title: 'Hi' }) // 'acme-notes wants to run "add_note" with {"title":"Hi"}. It changes data. Run it?'
 */
export function toolConfirmationPrompt(
  tool: Pick<ToolDescriptor, 'integration' | 'toolName' | 'effect'>,
  args: unknown,
): string {
  const shown = JSON.stringify(args ?? {});
  const argsText = shown.length > PROMPT_ARGS_CHARS ? `${shown.slice(0, PROMPT_ARGS_CHARS)}…` : shown;
  const effect =
    tool.effect === 'destructive'
      ? 'It destroys data and cannot be undone.'
      : tool.effect === 'write'
        ? 'It changes data.'
        : 'It reads sensitive data.';
  return `${tool.integration} wants to run "${tool.toolName}" with ${argsText}. ${effect} Run it?`;
}

/** The elicitation form (MCP form mode) a confirmation asks with: one required boolean, `confirm`. */
export function toolConfirmationSchema(tool: Pick<ToolDescriptor, 'name'>): {
  type: 'object';
  properties: { confirm: { type: 'boolean'; title: string; description: string } };
  required: ['confirm'];
} {
  return {
    type: 'object',
    properties: {
      confirm: { type: 'boolean', title: `Run ${tool.name}`, description: 'Yes to run it now.' },
    },
    required: ['confirm'],
  };
}

/**
 * The refusal a client without elicitation gets for a tool that needs confirmation: why it did not
 * run, and `allowHint`, how the tool can be let run without asking (the host names its policy command).
 */
export function toolConfirmationUnavailableMessage(
  tool: Pick<ToolDescriptor, 'name' | 'effect'>,
  allowHint: string,
): string {
  const why =
    tool.effect === 'read'
      ? 'is highly sensitive'
      : `${tool.effect === 'destructive' ? 'destroys' : 'changes'} data`;
  return `Not run: "${tool.name}" ${why}, so it runs only after you confirm, and this client cannot ask you (it does not support elicitation). Use a client that does, or ${allowHint}`;
}

/** The refusal when the person declined or cancelled the confirmation. */
export function toolNotConfirmedMessage(tool: Pick<ToolDescriptor, 'name'>): string {
  return `Not run: "${tool.name}" was not confirmed.`;
}

/**
 * The arguments as JSON with object keys sorted and `undefined` fields dropped: what a confirmation
 * is bound to, so the same arguments in another key order are the same call.
 * @example toolArgumentsJson({ b: 1, a: [2] }) // '{"a":[2],"b":1}'
 */
export function toolArgumentsJson(args: unknown): string {
  return stableJson(args ?? {});
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
