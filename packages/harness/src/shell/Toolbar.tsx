import { type ReactNode, useId } from 'react';
import { useHarnessToolbar } from '../hooks/index.js';
import {
  HARNESS_VARIANTS,
  type HarnessMode,
  type HarnessRegistryEntry,
  type HarnessVariant,
} from '../types.js';

const VARIANT_LABELS: Record<HarnessVariant, string> = { default: 'default', empty: 'empty', error: 'error' };

/** The entry page's toolbar: fixture variant, data mode (Live API only with a `live` block), record switch in live mode. */
export function Toolbar({ entry }: { readonly entry: HarnessRegistryEntry }): ReactNode {
  const toolbar = useHarnessToolbar();
  const id = useId();
  const live = entry.live !== undefined;
  const mode: HarnessMode = live ? toolbar.mode : 'fixtures';
  return (
    <fieldset className="harness-toolbar">
      <legend className="plt-visually-hidden">Toolbar</legend>
      <div className="harness-field">
        <label htmlFor={`${id}variant`}>Variant</label>
        <select
          id={`${id}variant`}
          value={toolbar.variant}
          onChange={(event) => toolbar.setVariant(event.target.value as HarnessVariant)}
        >
          {HARNESS_VARIANTS.map((variant) => (
            <option key={variant} value={variant}>
              {VARIANT_LABELS[variant]}
            </option>
          ))}
        </select>
      </div>
      <div className="harness-field">
        <label htmlFor={`${id}mode`}>Data mode</label>
        <select
          id={`${id}mode`}
          value={mode}
          onChange={(event) => toolbar.setMode(event.target.value as HarnessMode)}
        >
          <option value="fixtures">Fixtures</option>
          {live ? <option value="live">Live API</option> : null}
        </select>
      </div>
      {mode === 'live' ? (
        <div className="harness-field harness-field--inline">
          <input
            id={`${id}record`}
            type="checkbox"
            checked={toolbar.record}
            onChange={(event) => toolbar.setRecord(event.target.checked)}
          />
          <label htmlFor={`${id}record`}>Record</label>
        </div>
      ) : null}
      {mode === 'live' ? (
        <p className="harness-toolbar__note">Live API: requests reach the real service within the egress.</p>
      ) : null}
    </fieldset>
  );
}
