import type { ReactNode } from 'react';
import { useEntryPage } from './_shellContext.js';
import { ScheduleTrigger } from './ScheduleTrigger.js';
import { WebhookTrigger } from './WebhookTrigger.js';

/** `/<slug>/triggers`: every webhook and schedule the definition declares, each with a Fire button. */
export function TriggersSurface(): ReactNode {
  const { entry } = useEntryPage();
  const definition = entry.definition;
  if (definition === undefined) {
    return (
      <p role="status">
        {entry.name} has no definition in harness.config.ts; add{' '}
        <code>definition: asHarnessDefinition(...)</code> to fire its webhooks and schedules here.
      </p>
    );
  }
  const webhooks = definition.webhooks ?? [];
  const schedules = definition.schedules ?? [];
  if (webhooks.length === 0 && schedules.length === 0) {
    return <p role="status">{entry.name} declares no webhooks and no schedules.</p>;
  }
  return (
    <div className="harness-stack">
      {webhooks.map((webhook) => (
        <WebhookTrigger key={`webhook:${webhook.id}`} webhook={webhook} />
      ))}
      {schedules.map((schedule) => (
        <ScheduleTrigger key={`schedule:${schedule.id}`} schedule={schedule} />
      ))}
    </div>
  );
}
