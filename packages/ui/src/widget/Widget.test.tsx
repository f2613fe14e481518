// @vitest-environment happy-dom
import { Widget } from '@platform/ui';
import { act, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.useRealTimers();
});

describe('Widget', () => {
  it('is a region named by its header title, with the body inside', () => {
    render(
      <Widget>
        <Widget.Header title="Notes" />
        <Widget.Body>
          <p>Three notes</p>
        </Widget.Body>
      </Widget>,
    );
    const region = screen.getByRole('region', { name: 'Notes' });
    expect(within(region).getByRole('heading', { level: 3, name: 'Notes' })).toBeTruthy();
    expect(within(region).getByText('Three notes')).toBeTruthy();
  });

  it('shows a string title whole on hover, for when it is cut short', () => {
    render(
      <Widget>
        <Widget.Header title="Notes from every Acme workspace" />
      </Widget>,
    );
    expect(screen.getByRole('heading').getAttribute('title')).toBe('Notes from every Acme workspace');
  });

  it('shows no chrome controls when no flag asks for them', () => {
    render(
      <Widget>
        <Widget.Header title="Notes" />
        <Widget.Body>body</Widget.Body>
      </Widget>,
    );
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('explains where a part must go when used outside a Widget', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Widget.Body>x</Widget.Body>)).toThrow(
      '<Widget.Body> must be rendered inside <Widget>; wrap it as <Widget><Widget.Body … /></Widget>.',
    );
  });
});

describe('Widget menu', () => {
  function renderMenu() {
    const open = vi.fn();
    const remove = vi.fn();
    render(
      <Widget>
        <Widget.Header
          title="Notes"
          menu={
            <>
              <Widget.MenuItem onSelect={open}>Open in Acme</Widget.MenuItem>
              <Widget.MenuItem onSelect={() => {}} disabled>
                Export
              </Widget.MenuItem>
              <Widget.MenuItem onSelect={remove} destructive>
                Disconnect
              </Widget.MenuItem>
            </>
          }
        />
        <Widget.Body>body</Widget.Body>
      </Widget>,
    );
    return { open, remove, trigger: screen.getByRole('button', { name: 'More actions' }) };
  }

  it('opens from the keyboard, moves with the arrows, skips disabled items and selects with Enter', async () => {
    const user = userEvent.setup();
    const { open, remove, trigger } = renderMenu();
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');

    await user.tab();
    expect(document.activeElement).toBe(trigger);
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Open in Acme', 'Export', 'Disconnect']);
    expect(items[1]?.getAttribute('aria-disabled')).toBe('true');

    // Opening from the keyboard focuses the first item; the arrows skip the disabled one and wrap.
    expect(document.activeElement).toBe(items[0]);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(items[2]);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(items[0]);
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(items[2]);
    await user.keyboard('{Enter}');
    expect(remove).toHaveBeenCalledTimes(1);
    expect(open).not.toHaveBeenCalled();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('closes on Escape and gives focus back to its button', async () => {
    const user = userEvent.setup();
    const { open, trigger } = renderMenu();
    trigger.focus();
    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('menu')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(open).not.toHaveBeenCalled();
  });

  it('closes on Tab and lets focus move on to the next control', async () => {
    const user = userEvent.setup();
    render(
      <Widget isCollapsible>
        <Widget.Header title="Notes" menu={<Widget.MenuItem onSelect={() => {}}>Open</Widget.MenuItem>} />
        <Widget.Body>body</Widget.Body>
      </Widget>,
    );
    screen.getByRole('button', { name: 'More actions' }).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('menu');
    await user.tab();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Collapse' }));
  });

  it('renders its menu inside the widget’s region', async () => {
    const user = userEvent.setup();
    const { trigger } = renderMenu();
    await user.click(trigger);
    expect((await screen.findByRole('menu')).closest('section')).toBe(screen.getByRole('region'));
  });

  it('carries the theme forced around the widget into the menu, which renders in a portal', async () => {
    const user = userEvent.setup();
    render(
      <div data-platform-theme="dark">
        <Widget>
          <Widget.Header title="Notes" menu={<Widget.MenuItem onSelect={() => {}}>Open</Widget.MenuItem>} />
        </Widget>
      </div>,
    );
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    const menu = await screen.findByRole('menu');
    expect(menu.closest('[data-platform-theme]')?.getAttribute('data-platform-theme')).toBe('dark');
  });

  it('opens on click and selects on click', async () => {
    const user = userEvent.setup();
    const { open, trigger } = renderMenu();
    await user.click(trigger);
    await user.click(await screen.findByRole('menuitem', { name: 'Open in Acme' }));
    expect(open).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});

describe('Widget chrome flags', () => {
  it('isCollapsible: a toggle that hides the body and footers and reports the change', async () => {
    const user = userEvent.setup();
    const onCollapsedChange = vi.fn();
    render(
      <Widget
        isCollapsible
        aiFooterEnabled
        onCollapsedChange={onCollapsedChange}
        health={{ status: 'healthy' }}
      >
        <Widget.Header title="Notes" />
        <Widget.Body>Three notes</Widget.Body>
        <Widget.HealthFooter />
      </Widget>,
    );
    const toggle = screen.getByRole('button', { name: 'Collapse' });
    const body = screen.getByText('Three notes');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-controls')).toBe(body.id);
    expect(body.hidden).toBe(false);

    await user.click(toggle);
    expect(onCollapsedChange).toHaveBeenLastCalledWith(true);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.getAttribute('aria-label')).toBe('Expand');
    expect(body.hidden).toBe(true);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ask AI about this widget' })).toBeNull();

    await user.keyboard('{Enter}');
    expect(onCollapsedChange).toHaveBeenLastCalledWith(false);
    expect(body.hidden).toBe(false);
  });

  it('isCollapsible: follows the state the host keeps', async () => {
    const user = userEvent.setup();
    function Host() {
      const [collapsed, setCollapsed] = useState(true);
      return (
        <Widget isCollapsible collapsed={collapsed} onCollapsedChange={setCollapsed}>
          <Widget.Header title="Notes" />
          <Widget.Body>Three notes</Widget.Body>
        </Widget>
      );
    }
    render(<Host />);
    expect(screen.getByText('Three notes').hidden).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Expand' }));
    expect(screen.getByText('Three notes').hidden).toBe(false);
  });

  it('never collapses a widget that is not collapsible', () => {
    render(
      <Widget collapsed>
        <Widget.Header title="Notes" />
        <Widget.Body>Three notes</Widget.Body>
      </Widget>,
    );
    expect(screen.getByText('Three notes').hidden).toBe(false);
  });

  it('isPinnable: a pressed-state toggle that reports the change', async () => {
    const user = userEvent.setup();
    const onPinnedChange = vi.fn();
    render(
      <Widget isPinnable onPinnedChange={onPinnedChange}>
        <Widget.Header title="Notes" />
      </Widget>,
    );
    const pin = screen.getByRole('button', { name: 'Pin' });
    expect(pin.getAttribute('aria-pressed')).toBe('false');
    await user.click(pin);
    expect(onPinnedChange).toHaveBeenCalledWith(true);
    expect(pin.getAttribute('aria-pressed')).toBe('true');
    expect(pin.getAttribute('aria-label')).toBe('Unpin');
    expect(screen.getByRole('region').hasAttribute('data-pinned')).toBe(true);
  });

  it('aiFooterEnabled: a footer button that opens the assistant', async () => {
    const user = userEvent.setup();
    const onAskAi = vi.fn();
    render(
      <Widget aiFooterEnabled onAskAi={onAskAi}>
        <Widget.Header title="Notes" />
      </Widget>,
    );
    await user.click(screen.getByRole('button', { name: 'Ask AI about this widget' }));
    expect(onAskAi).toHaveBeenCalledTimes(1);
  });

  it('aiFooterEnabled without an assistant: the button is there but disabled, and says why', () => {
    render(
      <Widget aiFooterEnabled>
        <Widget.Header title="Notes" />
      </Widget>,
    );
    const button = screen.getByRole('button', { name: 'Ask AI about this widget' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.title).toBe('The assistant is available on the dashboard.');
  });

  it('takes other labels', () => {
    render(
      <Widget isCollapsible isPinnable labels={{ collapse: 'Einklappen', pin: 'Anheften' }}>
        <Widget.Header title="Notizen" />
      </Widget>,
    );
    expect(screen.getByRole('button', { name: 'Einklappen' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Anheften' })).toBeTruthy();
  });
});

describe('Widget.HealthFooter', () => {
  it('shows nothing without a health', () => {
    const { container } = render(
      <Widget>
        <Widget.HealthFooter />
      </Widget>,
    );
    expect(container.querySelector('footer')).toBeNull();
  });

  it('shows the status, the host’s message and when it was checked', () => {
    vi.useFakeTimers({
      now: new Date('2026-05-01T12:00:00Z'),
      toFake: ['Date', 'setInterval', 'clearInterval'],
    });
    render(
      <Widget
        health={{ status: 'degraded', message: 'Acme is slow to answer.', checkedAt: '2026-05-01T11:55:00Z' }}
      >
        <Widget.HealthFooter />
      </Widget>,
    );
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('DegradedAcme is slow to answer.');
    expect(status.closest('footer')?.getAttribute('data-status')).toBe('degraded');
    const time = screen.getByText('checked 5 minutes ago');
    expect(time.getAttribute('datetime')).toBe('2026-05-01T11:55:00.000Z');
  });

  it('prefers its own health to the widget’s', () => {
    render(
      <Widget health={{ status: 'healthy' }}>
        <Widget.HealthFooter health={{ status: 'failing', message: 'Acme rejected the token.' }} />
      </Widget>,
    );
    expect(screen.getByRole('status').textContent).toBe('FailingAcme rejected the token.');
  });

  it('keeps its relative time current', () => {
    vi.useFakeTimers({
      now: new Date('2026-05-01T12:00:00Z'),
      toFake: ['Date', 'setInterval', 'clearInterval'],
    });
    render(
      <Widget health={{ status: 'healthy', checkedAt: new Date('2026-05-01T12:00:00Z') }}>
        <Widget.HealthFooter />
      </Widget>,
    );
    expect(screen.getByText('checked just now')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(2 * 60_000);
    });
    expect(screen.getByText('checked 2 minutes ago')).toBeTruthy();
  });
});
