import { type ReactNode, useId, useMemo, useState } from 'react';
import { type ServerAnswer, useEntryPage } from './_shellContext.js';
import {
  initialToolFormValues,
  type ToolFormValues,
  toolArgumentsFromForm,
  toolFormFields,
} from './_toolForm.js';
import { ToolArgumentsForm } from './ToolArgumentsForm.js';
import { ToolConfirmDialog } from './ToolConfirmDialog.js';
import { ToolResult } from './ToolResult.js';

/** A tool as `GET tools` lists it. */
export interface HarnessToolView {
  readonly name: string;
  readonly toolName: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly effect: 'read' | 'write' | 'destructive';
  readonly sensitivity: 'low' | 'medium' | 'high';
  readonly annotations: Readonly<Record<string, boolean>>;
  readonly needsConfirmation: boolean;
}

/**
 * One tool: effective name, description, effect and sensitivity, its MCP annotations, its JSON
 * Schema, a form from the schema, Run, and the result. A tool the host would confirm first asks
 * the same question in a dialog (Confirm runs it, Cancel does not).
 */
export function ToolCard({ tool }: { readonly tool: HarnessToolView }): ReactNode {
  const id = useId();
  const { callServer } = useEntryPage();
  const fields = useMemo(() => toolFormFields(tool.inputSchema), [tool.inputSchema]);
  const [values, setValues] = useState<ToolFormValues>(() =>
    fields === undefined ? {} : initialToolFormValues(tool.inputSchema, fields),
  );
  const [rawArgs, setRawArgs] = useState('{}');
  const [formError, setFormError] = useState<string | null>(null);
  const [asking, setAsking] = useState<{ prompt: string; args: unknown } | null>(null);
  const [answer, setAnswer] = useState<ServerAnswer | null>(null);
  const [busy, setBusy] = useState(false);

  const post = async (args: unknown, confirmed: boolean): Promise<ServerAnswer> => {
    setBusy(true);
    try {
      return await callServer(`tools/${encodeURIComponent(tool.name)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ arguments: args, ...(confirmed ? { confirmed: true } : {}) }),
      });
    } catch (error) {
      return {
        status: 0,
        body: { ok: false, error: { message: error instanceof Error ? error.message : String(error) } },
      };
    } finally {
      setBusy(false);
    }
  };

  const run = async () => {
    let args: unknown;
    if (fields === undefined) {
      try {
        args = JSON.parse(rawArgs.trim() === '' ? '{}' : rawArgs);
      } catch (error) {
        setFormError(`The arguments are not JSON: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
    } else {
      const read = toolArgumentsFromForm(fields, values);
      if (!read.ok) {
        setFormError(read.message);
        return;
      }
      args = read.args;
    }
    setFormError(null);
    const first = await post(args, false);
    const error = (first.body as { error?: { code?: string; prompt?: string } } | null)?.error;
    if (first.status === 409 && error?.code === 'confirmation_required') {
      setAsking({ prompt: error.prompt ?? 'Run this tool?', args });
      return;
    }
    setAnswer(first);
  };

  const confirm = async () => {
    const pending = asking;
    setAsking(null);
    if (pending !== null) setAnswer(await post(pending.args, true));
  };

  const cancel = () => {
    setAsking(null);
    setAnswer({ status: 0, body: { ok: true, data: { cancelled: true } } });
  };

  return (
    <article className="harness-card" aria-labelledby={`${id}title`}>
      <h3 id={`${id}title`}>
        <code>{tool.name}</code>
      </h3>
      <p>{tool.description}</p>
      <p>
        <span className={`harness-badge harness-badge--${tool.effect === 'read' ? 'ok' : 'off'}`}>
          {tool.effect}
        </span>{' '}
        <span className="harness-badge">sensitivity {tool.sensitivity}</span>{' '}
        {tool.needsConfirmation ? (
          <span className="harness-badge harness-badge--off">asks the person first</span>
        ) : (
          <span className="harness-badge harness-badge--ok">runs without asking</span>
        )}
      </p>
      <dl className="harness-scheme" aria-label={`Annotations of ${tool.name}`}>
        <div>
          <dt>Declared as</dt>
          <dd>
            <code>{tool.toolName}</code>
          </dd>
        </div>
        {Object.entries(tool.annotations).map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{String(value)}</dd>
          </div>
        ))}
      </dl>
      <details>
        <summary>JSON Schema of {tool.name}</summary>
        <pre className="harness-pre" data-testid="tool-schema">
          {JSON.stringify(tool.inputSchema, null, 2)}
        </pre>
      </details>
      <form
        aria-label={`Arguments of ${tool.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        {fields === undefined ? (
          <>
            <label htmlFor={`${id}raw`}>Arguments of {tool.name} (JSON)</label>
            <textarea
              id={`${id}raw`}
              className="harness-code-input"
              rows={4}
              spellCheck={false}
              value={rawArgs}
              onChange={(event) => setRawArgs(event.target.value)}
            />
          </>
        ) : (
          <ToolArgumentsForm tool={tool.name} fields={fields} values={values} onChange={setValues} />
        )}
        {formError === null ? null : (
          <p role="alert" className="harness-error">
            {formError}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Running…' : `Run ${tool.name}`}
        </button>
      </form>
      {asking === null ? null : (
        <ToolConfirmDialog
          tool={tool.name}
          prompt={asking.prompt}
          onConfirm={() => void confirm()}
          onCancel={cancel}
        />
      )}
      {answer === null ? null : <ToolResult label={`Result of ${tool.name}`} answer={answer} />}
    </article>
  );
}
