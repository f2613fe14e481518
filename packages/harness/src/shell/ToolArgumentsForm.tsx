import { type ReactNode, useId } from 'react';
import type { ToolFormField, ToolFormValues } from './_toolForm.js';

/** The fields of a tool's form, one per input property, labelled by name (required ones say so). */
export function ToolArgumentsForm({
  tool,
  fields,
  values,
  onChange,
}: {
  readonly tool: string;
  readonly fields: readonly ToolFormField[];
  readonly values: ToolFormValues;
  readonly onChange: (values: ToolFormValues) => void;
}): ReactNode {
  const id = useId();
  if (fields.length === 0) return <p className="harness-muted">{tool} takes no arguments.</p>;
  const set = (name: string, value: string | boolean) => onChange({ ...values, [name]: value });
  return (
    <div className="harness-stack">
      {fields.map((field) => {
        const inputId = `${id}${field.name}`;
        const label = `${field.name}${field.required ? '' : ' (optional)'}`;
        const value = values[field.name];
        const text = typeof value === 'string' ? value : '';
        const hint =
          field.description === undefined ? null : (
            <span className="harness-muted" id={`${inputId}hint`}>
              {field.description}
            </span>
          );
        const describedBy = field.description === undefined ? undefined : `${inputId}hint`;
        if (field.kind === 'boolean') {
          return (
            <div key={field.name}>
              <input
                id={inputId}
                type="checkbox"
                checked={value === true}
                aria-describedby={describedBy}
                onChange={(event) => set(field.name, event.target.checked)}
              />{' '}
              <label htmlFor={inputId}>{label}</label> {hint}
            </div>
          );
        }
        return (
          <div key={field.name} className="harness-field">
            <label htmlFor={inputId}>{label}</label>
            {field.kind === 'enum' ? (
              <select
                id={inputId}
                value={text}
                aria-describedby={describedBy}
                onChange={(event) => set(field.name, event.target.value)}
              >
                {field.required ? null : <option value="">(not sent)</option>}
                {(field.options ?? []).map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : field.kind === 'json' ? (
              <textarea
                id={inputId}
                className="harness-code-input"
                rows={3}
                spellCheck={false}
                value={text}
                aria-describedby={describedBy}
                onChange={(event) => set(field.name, event.target.value)}
              />
            ) : (
              <input
                id={inputId}
                type={field.kind === 'string' ? 'text' : 'number'}
                step={field.kind === 'integer' ? 1 : 'any'}
                value={text}
                aria-required={field.required}
                aria-describedby={describedBy}
                onChange={(event) => set(field.name, event.target.value)}
              />
            )}
            {hint}
          </div>
        );
      })}
    </div>
  );
}
