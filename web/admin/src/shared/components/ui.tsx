import { type ReactNode } from 'react';
import {
  CLAIM_STATE_BADGES,
  CLAIM_STATE_OF_STATUS,
  CLAIM_STATUS_LABELS,
  type ClaimStatus,
  type ProtectionStatus,
  type RiskLevel,
} from '@claims/contracts';
import { FoldingCard } from './FoldingCard.js';

export type BadgeTone = 'info' | 'warning' | 'success' | 'danger' | 'neutral';

export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** The status label with its lowercase state badge in the state's colour (docs/product.md#status-badges). */
export function StatusBadge({ status, withLabel = true }: { status: ClaimStatus; withLabel?: boolean }) {
  const state = CLAIM_STATE_OF_STATUS[status];
  return (
    <span className="status">
      {withLabel ? <span className="status-label">{CLAIM_STATUS_LABELS[status]}</span> : null}
      <Badge tone={CLAIM_STATE_BADGES[state]}>{state}</Badge>
    </span>
  );
}

/** The status once, as its label in its state's colour: where a row has no room to say it twice. */
export function StatusTag({ status }: { status: ClaimStatus }) {
  return <Badge tone={CLAIM_STATE_BADGES[CLAIM_STATE_OF_STATUS[status]]}>{CLAIM_STATUS_LABELS[status]}</Badge>;
}

export const PROTECTION_LABELS: Record<ProtectionStatus, string> = {
  protected: 'Protected',
  ota: 'One-time appeasement (ota)',
  removed: 'Protection removed',
  unprotected: 'Unprotected',
};
const PROTECTION_TONES: Record<ProtectionStatus, BadgeTone> = {
  protected: 'success',
  ota: 'info',
  removed: 'warning',
  unprotected: 'neutral',
};

/** Protection status: ota, removed, protected or unprotected (docs/product.md#protection-status). */
export function ProtectionBadge({ status }: { status: string }) {
  const known = status === 'protected' || status === 'ota' || status === 'removed' || status === 'unprotected';
  return <Badge tone={known ? PROTECTION_TONES[status] : 'neutral'}>{status}</Badge>;
}

const RISK_TONES: Record<RiskLevel, BadgeTone> = { low: 'success', medium: 'warning', high: 'danger' };
export const RISK_LABELS: Record<RiskLevel, string> = { low: 'Low', medium: 'Medium', high: 'High' };

/**
 * A claim's risk level in words (its colour only repeats them), the score on hover and, for a screen reader, in the
 * text itself.
 */
export function RiskBadge({ level, score }: { level: RiskLevel; score: number }) {
  return (
    <span className={`badge badge-${RISK_TONES[level]}`} title={`Risk score ${score} of 100`}>
      {RISK_LABELS[level]} risk<span className="visually-hidden">, score {score} of 100</span>
    </span>
  );
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

/**
 * A claim-page tool folded under its heading until the agent opens it, so the decision and the facts lead the page;
 * left open, it stays open on the next claim.
 */
export function ToolCard({ title, titleId, children }: { title: string; titleId?: string; children: ReactNode }) {
  return (
    <FoldingCard
      title={title}
      storageKey={`tool:${title}`}
      defaultOpen={false}
      className="tool-card"
      {...(titleId ? { titleId, focusableTitle: true } : {})}
    >
      {children}
    </FoldingCard>
  );
}
