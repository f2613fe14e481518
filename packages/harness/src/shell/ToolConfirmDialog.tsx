import { type ReactNode, useEffect, useId, useRef } from 'react';

/**
 * The question the host asks before a tool that changes or destroys data, or reads highly
 * sensitive data, runs (the host's own prompt): Confirm runs it, Cancel (or Esc) does not.
 */
export function ToolConfirmDialog({
  tool,
  prompt,
  onConfirm,
  onCancel,
}: {
  readonly tool: string;
  readonly prompt: string;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}): ReactNode {
  const id = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    confirmRef.current?.focus();
  }, []);
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby={`${id}title`}
      aria-describedby={`${id}prompt`}
      className="harness-dialog"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <h4 id={`${id}title`}>Run {tool}?</h4>
      <p id={`${id}prompt`}>{prompt}</p>
      <p className="harness-muted">
        The host asks the person this before the tool runs; a model cannot answer it.
      </p>
      <div className="harness-dialog__actions">
        <button type="button" ref={confirmRef} onClick={onConfirm}>
          Confirm
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
