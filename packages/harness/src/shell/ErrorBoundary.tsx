import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface ErrorBoundaryProps {
  /** What failed, for the heading: "The widget “Notes” failed to render." */
  readonly what: string;
  /** A change of it clears a caught error (the page moved on) without remounting what did not fail. */
  readonly resetKey?: string;
  readonly children?: ReactNode;
}

interface State {
  readonly error: Error | null;
}

/**
 * Catches a render error below it and shows its message and stack in place, so one broken widget
 * (or a broken fixture) leaves the rest of the page working. Remount it (a `key`) to try again.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.error !== null && previous.resetKey !== this.props.resetKey)
      this.setState({ error: null });
  }

  override componentDidCatch(_error: unknown, _info: ErrorInfo): void {
    // Shown in place; React has already reported it to the console in development.
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return (
      <div role="alert" className="harness-error">
        <p className="harness-error__title">{this.props.what}</p>
        <p className="harness-error__message">{error.message}</p>
        {error.stack === undefined ? null : (
          <details>
            <summary>Stack</summary>
            <pre className="harness-pre">{error.stack}</pre>
          </details>
        )}
      </div>
    );
  }
}
