/** An MCP `CallToolResult` as the host and the harness answer `tools/call` (JSON only). */
export interface ToolCallResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/**
 * A tool's answer as a model gets it: the same JSON as text, and as `structuredContent` when it is
 * an object.
 * @example toolCallResult({ id: 'n1' }) // { content: [{ type: 'text', text: '{"id":"n1"}' }], structuredContent: { id: 'n1' } }
 */
export function toolCallResult(data: unknown): ToolCallResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(data ?? null) }],
    ...(typeof data === 'object' && data !== null && !Array.isArray(data)
      ? { structuredContent: data as Record<string, unknown> }
      : {}),
  };
}

/** A tool call that did not run or failed: `isError: true` with the message for the model. */
export function toolRefusal(message: string): ToolCallResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
