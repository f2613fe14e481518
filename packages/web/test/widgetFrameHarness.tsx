// A test-only page of the web app's real WidgetFrame: the host's browser test
// (packages/host/test/widgetFrames.browser.test.ts) bundles this file and serves it on the host's
// origin, so the frame, the bridge and the relay run as on the dashboard. The query names the
// frames: ?frame=<versionId>:<widgetId>:<slug>&frame=... and ?account=<accountId>.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { WidgetFrame } from '../src/app/dashboard/WidgetFrame.js';

const query = new URLSearchParams(window.location.search);
const accountId = query.get('account') ?? '';
const frames = query.getAll('frame').map((spec) => {
  const [versionId = '', widgetId = '', slug = ''] = spec.split(':');
  return { versionId, widgetId, slug };
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <main>
      <h1>Widget frames</h1>
      <button type="button" onClick={(event) => (event.currentTarget.textContent = 'Clicked')}>
        Still usable
      </button>
      {frames.map(({ versionId, widgetId, slug }) => (
        <section key={`${versionId}:${widgetId}`} aria-label={widgetId} data-widget={widgetId}>
          <WidgetFrame
            versionId={versionId}
            widgetId={widgetId}
            slug={slug}
            accountId={accountId}
            title={`Widget ${widgetId}`}
            props={{
              accountId,
              workspaceId: accountId,
              widgetConfigId: `wc-${widgetId}`,
              collapsed: false,
              isPinned: false,
              health: null,
              integrationMetadata: { slug, name: slug, version: '1', publisher: 'Test' },
            }}
          />
        </section>
      ))}
    </main>
  </StrictMode>,
);
