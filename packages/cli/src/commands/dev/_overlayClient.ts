// Owns the page half of `platform dev`'s load-failure overlay: served into every harness page (by
// devOverlayPlugin), it shows the failure the dev server reports (fetched on load, pushed over Vite's
// HMR socket) in a modal dialog, and reloads the page once the server says the harness loads again.
// Browser code with no imports: the dev server serves this file's text as it is (after stripping types).
interface Failure {
  heading: string;
  file: string;
  message: string;
  findings: string[];
  fix: string;
}

const STATUS_EVENT = 'platform:harness-status';
const STATUS_PATH = '/@platform-dev/status';
let dialog: HTMLDialogElement | undefined;
let failedHere = false;
let pushed = false;

function element(tag: string, text: string, style: string): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = text;
  node.setAttribute('style', style);
  return node;
}

function show(failure: Failure): void {
  failedHere = true;
  dialog?.remove();
  const box = document.createElement('dialog');
  box.setAttribute('aria-labelledby', 'platform-dev-error-heading');
  box.setAttribute(
    'style',
    'max-width:min(960px,92vw);padding:24px;border:2px solid #b3261e;border-radius:8px;background:#ffffff;color:#1b1b1b;font:15px/1.5 system-ui,sans-serif',
  );
  const heading = element('h2', failure.heading, 'margin:0 0 8px;color:#8c1d18;font-size:20px');
  heading.id = 'platform-dev-error-heading';
  const mono =
    'white-space:pre-wrap;font:13px/1.45 ui-monospace,monospace;background:#f3f3f3;color:#1b1b1b;padding:12px;border-radius:4px;margin:8px 0';
  box.append(heading, element('p', `In ${failure.file}`, 'margin:0 0 8px;font-weight:600'));
  box.append(element('pre', failure.message, mono));
  if (failure.findings.length > 0) box.append(element('pre', failure.findings.join('\n\n'), mono));
  box.append(element('p', failure.fix, 'margin:8px 0'));
  const close = element(
    'button',
    'Dismiss',
    'font:inherit;padding:6px 14px;border:1px solid #1b1b1b;border-radius:4px;background:#ffffff;color:#1b1b1b;cursor:pointer',
  );
  close.addEventListener('click', () => box.close());
  box.append(
    close,
    element(
      'p',
      'Esc also dismisses it. Saving the fix reloads this page.',
      'margin:8px 0 0;color:#4a4a4a;font-size:13px',
    ),
  );
  document.body.append(box);
  box.showModal();
  dialog = box;
}

function apply(failure: Failure | null): void {
  if (failure !== null) show(failure);
  else if (failedHere) location.reload();
}

const hot = (
  import.meta as ImportMeta & { hot?: { on(event: string, listener: (data: unknown) => void): void } }
).hot;
hot?.on(STATUS_EVENT, (data) => {
  pushed = true;
  apply(data as Failure | null);
});
void fetch(STATUS_PATH, { cache: 'no-store' })
  .then((response) => response.json() as Promise<{ failure: Failure | null }>)
  .then((body) => {
    if (!pushed) apply(body.failure);
  })
  .catch(() => undefined);
