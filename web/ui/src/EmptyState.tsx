import type { ReactNode } from 'react';

/** What a list or page shows when it has nothing yet: what is missing, why, and (when there is one) the way on. */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="ui-empty">
      <p className="ui-empty-title">{title}</p>
      {children ? <div className="ui-empty-body">{children}</div> : null}
      {action ? <div className="ui-empty-action">{action}</div> : null}
    </div>
  );
}
