// @vitest-environment happy-dom
import { Widget, type WidgetDataStateProps } from '@platform/ui';
import { act, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

type Notes = string[];

function stateElement(props: Partial<WidgetDataStateProps<Notes>>) {
  return (
    <Widget>
      <Widget.Header title="Notes" />
      <Widget.Body>
        <Widget.DataState<Notes> data={undefined} {...props}>
          {(notes) => (
            <ul>
              {notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          )}
        </Widget.DataState>
      </Widget.Body>
    </Widget>
  );
}

const renderState = (props: Partial<WidgetDataStateProps<Notes>>) => render(stateElement(props));

const stateOf = () => document.querySelector('.plt-data-state')?.getAttribute('data-state');

afterEach(() => {
  vi.useRealTimers();
});

describe('Widget.DataState', () => {
  it('loading: an announced, busy placeholder', () => {
    renderState({ loading: true });
    expect(stateOf()).toBe('loading');
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(document.querySelector('.plt-data-state')?.getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByRole('listitem')).toBeNull();
  });

  it('data: rendered by the children', () => {
    renderState({ data: ['First', 'Second'] });
    expect(stateOf()).toBe('data');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['First', 'Second']);
    expect(document.querySelector('.plt-data-state')?.getAttribute('aria-busy')).toBe('false');
  });

  it('empty: the default message for an empty list, or what the widget says', () => {
    const { unmount } = renderState({ data: [] });
    expect(stateOf()).toBe('empty');
    expect(screen.getByText('Nothing to show yet.')).toBeTruthy();
    unmount();
    renderState({
      data: ['only archived'],
      isEmpty: (notes) => notes[0] === 'only archived',
      empty: <p>No open notes.</p>,
    });
    expect(stateOf()).toBe('empty');
    expect(screen.getByText('No open notes.')).toBeTruthy();
  });

  it('error: an alert with the error’s message and a retry that refreshes; it wins over stale data', async () => {
    const user = userEvent.setup();
    const onRefresh = vi.fn();
    renderState({ data: ['stale'], error: new Error('Acme is unreachable.'), onRefresh });
    expect(stateOf()).toBe('error');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('This widget couldn’t load its data.');
    expect(alert.textContent).toContain('Acme is unreachable.');
    expect(screen.queryByText('stale')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRefresh).toHaveBeenCalledTimes(1);
  });

  it('error without a way to refresh: no retry button', () => {
    renderState({ error: 'failed' });
    expect(screen.getByRole('alert')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('onRefresh: a Refresh button in the header; refreshing marks it busy, keeps its focus and turns its icon', async () => {
    const user = userEvent.setup();
    const onRefresh = vi.fn();
    const { rerender } = renderState({ data: ['First'], onRefresh });
    const refresh = screen.getByRole('button', { name: 'Refresh' });
    expect(refresh.closest('header')).not.toBeNull();
    await user.click(refresh);
    expect(onRefresh).toHaveBeenCalledTimes(1);
    expect(refresh.querySelector('.plt-icon--spin')).toBeNull();

    rerender(stateElement({ data: ['First'], onRefresh, refreshing: true }));
    // aria-disabled, not disabled: a disabled button would drop keyboard focus to <body>.
    expect(document.activeElement).toBe(refresh);
    expect(refresh.getAttribute('aria-disabled')).toBe('true');
    expect(refresh.getAttribute('aria-busy')).toBe('true');
    expect(refresh.querySelector('.plt-icon--spin')).not.toBeNull();
    await user.click(refresh);
    expect(onRefresh).toHaveBeenCalledTimes(1);
    expect(screen.getByText('First')).toBeTruthy();
  });

  it('error: the retry is an ordinary button, and the only one in the body', () => {
    renderState({ error: new Error('Acme is unreachable.'), onRefresh: () => {} });
    const retry = screen.getByRole('button', { name: 'Try again' });
    expect(retry.className).toBe('plt-button');
    expect(document.querySelectorAll('.plt-widget__body button')).toHaveLength(1);
  });

  it('without a header: Refresh and the last update show under the content', () => {
    render(
      <Widget>
        <Widget.DataState data={['x']} onRefresh={() => {}} updatedAt={Date.now()}>
          {() => <p>content</p>}
        </Widget.DataState>
      </Widget>,
    );
    const meta = document.querySelector('.plt-data-state__meta');
    expect(meta?.textContent).toBe('Updated just now');
    expect(meta?.querySelector('button')?.getAttribute('aria-label')).toBe('Refresh');
  });

  it('with a health footer: the last update shows there, as the footer’s only time', () => {
    vi.useFakeTimers({
      now: new Date('2026-05-01T12:00:00Z'),
      toFake: ['Date', 'setInterval', 'clearInterval'],
    });
    render(
      <Widget health={{ status: 'healthy', checkedAt: '2026-05-01T11:58:00Z' }}>
        <Widget.Header title="Notes" />
        <Widget.Body>
          <Widget.DataState data={['x']} updatedAt="2026-05-01T11:55:00Z">
            {() => <p>content</p>}
          </Widget.DataState>
        </Widget.Body>
        <Widget.HealthFooter />
      </Widget>,
    );
    expect(document.querySelectorAll('time')).toHaveLength(1);
    const time = screen.getByText('Updated 5 minutes ago');
    expect(time.closest('footer')).not.toBeNull();
    expect(time.getAttribute('title')).toContain('checked 2 minutes ago');
  });

  it('updatedAt: the time of the last update as relative time, kept current', () => {
    vi.useFakeTimers({
      now: new Date('2026-05-01T12:00:00Z'),
      toFake: ['Date', 'setInterval', 'clearInterval'],
    });
    renderState({ data: ['First'], updatedAt: Date.parse('2026-05-01T11:55:00Z') });
    const time = screen.getByText('Updated 5 minutes ago');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe('2026-05-01T11:55:00.000Z');
    act(() => {
      vi.advanceTimersByTime(60 * 60_000);
    });
    expect(screen.getByText('Updated 1 hour ago')).toBeTruthy();
  });

  it.each([
    ['2026-05-01T11:59:40Z', 'Updated just now'],
    ['2026-05-01T09:00:00Z', 'Updated 3 hours ago'],
    ['2026-04-30T10:00:00Z', 'Updated yesterday'],
    ['2026-04-20T12:00:00Z', 'Updated 11 days ago'],
  ])('updatedAt %s reads “%s”', (updatedAt, text) => {
    vi.useFakeTimers({
      now: new Date('2026-05-01T12:00:00Z'),
      toFake: ['Date', 'setInterval', 'clearInterval'],
    });
    renderState({ data: ['First'], updatedAt });
    expect(screen.getByText(text)).toBeTruthy();
  });

  it('formats relative time in the widget’s locale', () => {
    vi.useFakeTimers({
      now: new Date('2026-05-01T12:00:00Z'),
      toFake: ['Date', 'setInterval', 'clearInterval'],
    });
    render(
      <Widget locale="de" labels={{ updated: (relative) => `Aktualisiert ${relative}` }}>
        <Widget.DataState data={['x']} updatedAt="2026-05-01T11:55:00Z">
          {() => null}
        </Widget.DataState>
      </Widget>,
    );
    expect(screen.getByText('Aktualisiert vor 5 Minuten')).toBeTruthy();
  });

  it('shows no time for an unreadable updatedAt', () => {
    renderState({ data: ['First'], updatedAt: 'not a date' });
    expect(document.querySelector('time')).toBeNull();
  });
});
