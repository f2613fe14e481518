import { faCircleExclamation, faTriangleExclamation } from '@fortawesome/free-solid-svg-icons';
import type { ReactNode } from 'react';
import { Icon } from './icons/Icon.js';

export interface AlertProps {
  readonly tone: 'error' | 'warning';
  readonly title: ReactNode;
  readonly message?: ReactNode;
  /** A neutral button or link; the tone colours the icon and the edge, never the action. */
  readonly action?: ReactNode;
  readonly children?: ReactNode;
  readonly code?: string;
}

/** The one alert pattern of the kit (icon, title, message, action), for error and warning states. */
export function Alert({ tone, title, message, action, children, code }: AlertProps): ReactNode {
  return (
    <div
      role="alert"
      className={tone === 'error' ? 'plt-alert plt-alert--error' : 'plt-alert plt-alert--warning'}
      data-code={code}
    >
      <Icon
        icon={tone === 'error' ? faCircleExclamation : faTriangleExclamation}
        className="plt-alert__icon"
      />
      <div className="plt-alert__body">
        <p className="plt-alert__title">{title}</p>
        {message === undefined ? null : <p className="plt-alert__message">{message}</p>}
        {children}
        {action === undefined ? null : <div className="plt-alert__action">{action}</div>}
      </div>
    </div>
  );
}
