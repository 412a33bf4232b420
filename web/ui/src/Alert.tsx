import type { ReactNode } from 'react';

export type AlertTone = 'danger' | 'info' | 'success' | 'warning';

/** A problem is announced at once (role=alert); news waits its turn (role=status). */
export function Alert({ children, tone = 'danger' }: { children: ReactNode; tone?: AlertTone }) {
  return (
    <div role={tone === 'danger' ? 'alert' : 'status'} className={`alert alert-${tone}`}>
      {children}
    </div>
  );
}
