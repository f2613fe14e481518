// @vitest-environment happy-dom
import { Translate, TranslationProviderMissingError } from '@platform/ui';
import { render, screen } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { Component, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';

const messages = {
  notes: {
    count: '{count, plural, =0 {No notes} one {# note} other {# notes}}',
    owner: 'Shared by <b>{name}</b>',
  },
  title: 'Acme notes',
};

function WithMessages({ children, locale = 'en' }: { children: ReactNode; locale?: string }) {
  return (
    <NextIntlClientProvider locale={locale} messages={messages} timeZone="UTC">
      {children}
    </NextIntlClientProvider>
  );
}

class Catch extends Component<
  { children: ReactNode; onError: (error: unknown) => void },
  { failed: boolean }
> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    this.props.onError(error);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

describe('Translate', () => {
  it('renders a message of the NextIntlClientProvider', () => {
    render(
      <WithMessages>
        <Translate id="title" />
      </WithMessages>,
    );
    expect(screen.getByText('Acme notes')).toBeTruthy();
  });

  it('takes a namespace and ICU values', () => {
    render(
      <WithMessages>
        <p>
          <Translate namespace="notes" id="count" values={{ count: 3 }} />
        </p>
        <p>
          <Translate id="notes.count" values={{ count: 0 }} />
        </p>
      </WithMessages>,
    );
    expect(screen.getByText('3 notes')).toBeTruthy();
    expect(screen.getByText('No notes')).toBeTruthy();
  });

  it('renders rich text tags', () => {
    render(
      <WithMessages>
        <p data-testid="owner">
          <Translate
            namespace="notes"
            id="owner"
            values={{ name: 'Ada', b: (chunks) => <strong>{chunks}</strong> }}
          />
        </p>
      </WithMessages>,
    );
    expect(screen.getByTestId('owner').innerHTML).toBe('Shared by <strong>Ada</strong>');
  });

  it('fails with a clear message without a NextIntlClientProvider', () => {
    // React reports the caught render error on the console; that report is expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    render(
      <Catch onError={onError}>
        <Translate namespace="notes" id="count" values={{ count: 1 }} />
      </Catch>,
    );
    const error = onError.mock.calls[0]?.[0];
    expect(error).toBeInstanceOf(TranslationProviderMissingError);
    expect((error as Error).message).toBe(
      '<Translate id="notes.count"> needs a NextIntlClientProvider from next-intl above it, and none was found. The host and the harness mount one; elsewhere (your own pages, component tests) wrap the tree in <NextIntlClientProvider locale="en" messages={messages}>.',
    );
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});
