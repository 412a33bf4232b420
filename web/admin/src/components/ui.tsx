import { useEffect, useRef, type ReactNode } from 'react';
import {
  CLAIM_STATE_BADGES, CLAIM_STATE_OF_STATUS, CLAIM_STATUS_LABELS, type ClaimStatus, type ProtectionStatus,
} from '@claims/contracts';

/** A screen: its title becomes the document title and takes focus so screen readers announce it. */
export function Page({ title, actions, children }: { title: ReactNode; actions?: ReactNode; children?: ReactNode }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const text = typeof title === 'string' ? title : null;
  useEffect(() => {
    if (text) document.title = `${text} · Claim desk`;
    headingRef.current?.focus({ preventScroll: true });
  }, [text]);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title" ref={headingRef} tabIndex={-1}>{title}</h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

export function Alert({ children, tone = 'danger' }: { children: ReactNode; tone?: 'danger' | 'info' | 'success' | 'warning' }) {
  return <div role={tone === 'danger' ? 'alert' : 'status'} className={`alert alert-${tone}`}>{children}</div>;
}

export type BadgeTone = 'info' | 'warning' | 'success' | 'danger' | 'neutral';

export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** Spec §4: the status label with its lowercase state badge in the state's colour. */
export function StatusBadge({ status, withLabel = true }: { status: ClaimStatus; withLabel?: boolean }) {
  const state = CLAIM_STATE_OF_STATUS[status];
  return (
    <span className="status">
      {withLabel ? <span className="status-label">{CLAIM_STATUS_LABELS[status]}</span> : null}
      <Badge tone={CLAIM_STATE_BADGES[state]}>{state}</Badge>
    </span>
  );
}

export const PROTECTION_LABELS: Record<ProtectionStatus, string> = {
  protected: 'Protected',
  ota: 'One-time appeasement (ota)',
  removed: 'Protection removed',
  unprotected: 'Unprotected',
};
const PROTECTION_TONES: Record<ProtectionStatus, BadgeTone> = { protected: 'success', ota: 'info', removed: 'warning', unprotected: 'neutral' };

/** Spec §4 protection status: ota, removed, protected or unprotected. */
export function ProtectionBadge({ status }: { status: string }) {
  const known = status === 'protected' || status === 'ota' || status === 'removed' || status === 'unprotected';
  return <Badge tone={known ? PROTECTION_TONES[status] : 'neutral'}>{status}</Badge>;
}

/** A term and its value in a description list. */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="fact">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
