import type { ReactNode } from 'react';
import { useWidgetContext } from './_context.js';

export interface WidgetBodyProps {
  readonly children?: ReactNode;
  readonly className?: string;
}

/**
 * The widget's content area; hidden while the widget is collapsed.
 * @example <Widget.Body><NoteList notes={notes} /></Widget.Body>
 */
export function WidgetBody({ children, className }: WidgetBodyProps): ReactNode {
  const widget = useWidgetContext('Widget.Body');
  return (
    <div
      id={widget.bodyId}
      className={['plt-widget__body', className ?? ''].filter(Boolean).join(' ')}
      hidden={widget.collapsed}
    >
      {children}
    </div>
  );
}
