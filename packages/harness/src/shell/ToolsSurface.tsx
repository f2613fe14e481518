import { type ReactNode, useEffect, useState } from 'react';
import type { ServerAnswer } from './_shellContext.js';
import { useEntryPage } from './_shellContext.js';
import { type HarnessToolView, ToolCard } from './ToolCard.js';

interface ToolsData {
  readonly tools: readonly HarnessToolView[];
  readonly unserved: readonly { readonly name: string; readonly reason: string }[];
}

/**
 * `/<slug>/tools`: every tool the host would serve models (from `GET tools`), each with its
 * effective name, annotations, JSON Schema, a form, Run and the result; the declared tools the host
 * would not serve, and why; where an MCP client reaches the same tools (`/mcp`).
 */
export function ToolsSurface(): ReactNode {
  const { entry, callServer } = useEntryPage();
  const [answer, setAnswer] = useState<ServerAnswer | null>(null);
  useEffect(() => {
    let current = true;
    callServer('tools').then(
      (found) => current && setAnswer(found),
      (error: unknown) =>
        current &&
        setAnswer({
          status: 0,
          body: { ok: false, error: { message: error instanceof Error ? error.message : String(error) } },
        }),
    );
    return () => {
      current = false;
    };
  }, [callServer]);

  if (entry.definition === undefined) {
    return (
      <p role="status">
        {entry.name} has no definition in harness.config.ts; add{' '}
        <code>definition: asHarnessDefinition(...)</code> to try its tools here.
      </p>
    );
  }
  if (answer === null) return <p role="status">Loading the tools…</p>;
  const body = answer.body as { ok?: boolean; data?: ToolsData; error?: { message?: string } } | null;
  if (body?.ok !== true || body.data === undefined) {
    return (
      <div role="alert" className="harness-error">
        <p className="harness-error__title">The tools could not be listed (HTTP {answer.status})</p>
        <p>{body?.error?.message ?? String(answer.body)}</p>
      </div>
    );
  }
  const { tools, unserved } = body.data;
  const mcpUrl = `${window.location.origin}/mcp`;
  return (
    <div className="harness-stack">
      <p className="harness-muted">
        Models call these tools by their effective name, as the host serves them. An MCP client reaches the
        same tools at <code>{mcpUrl}</code> (no sign-in; this machine only).
      </p>
      {tools.length === 0 ? <p role="status">{entry.name} serves no tools to models.</p> : null}
      {tools.map((tool) => (
        <ToolCard key={tool.name} tool={tool} />
      ))}
      {unserved.length === 0 ? null : (
        <section aria-labelledby="harness-unserved-tools">
          <h3 id="harness-unserved-tools">Declared, not served</h3>
          <ul>
            {unserved.map((tool) => (
              <li key={tool.name}>
                <code>{tool.name}</code>: {tool.reason}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
