import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CLAIM_STATUS_LABELS,
  ClaimStatus,
  RESOLUTION_REASON_LABELS,
  ResolutionReason,
  type AdminClaimDetail,
} from '@claims/contracts';
import { CLOSING_STATUSES } from '@claims/domain';
import { api, isHttpError } from '../../shared/api.js';
import { Alert } from '@claims/ui/components';
import { ToolCard } from '../../shared/components/ui.js';
import { errorText } from '@claims/ui';
import { claimQueries } from '../queries.js';
import { Options } from '../../shared/components/Options.js';

/** After a change: the answer is the new claim; the history and the lists follow. */
export function useClaimUpdated(claimId: string) {
  const client = useQueryClient();
  return async (claim?: AdminClaimDetail) => {
    const { queryKey } = claimQueries.detail(claimId);
    if (claim) client.setQueryData(queryKey, claim);
    await Promise.all([
      client.invalidateQueries({ queryKey, refetchType: claim ? 'none' : 'active' }),
      client.invalidateQueries({ queryKey: claimQueries.timeline(claimId).queryKey }),
      client.invalidateQueries({ queryKey: claimQueries.lists() }),
    ]);
  };
}

/** A 409 version_conflict: someone changed the claim since it was loaded. */
export function ConflictAlert({ onReload }: { onReload: () => void }) {
  return (
    <div role="alert" className="alert alert-danger">
      <p>
        <strong>This claim changed while you were working on it.</strong> Someone else updated it after you opened it,
        so nothing was saved. Reload it to see the latest version, then try again.
      </p>
      <button type="button" className="button button-secondary" onClick={onReload}>
        Reload claim
      </button>
    </div>
  );
}

/** Move the claim to one of its allowed next statuses. */
export function StatusForm({ claim }: { claim: AdminClaimDetail }) {
  const id = useId();
  const updated = useClaimUpdated(claim.id);
  const [status, setStatus] = useState<ClaimStatus | ''>('');
  const [note, setNote] = useState('');
  const [reason, setReason] = useState<ResolutionReason | ''>('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // The server holds the rule (domain CLOSING_STATUSES); the form asks for what it will need.
  const needsReason = status !== '' && CLOSING_STATUSES.includes(status) && claim.resolutions.length === 0;
  const change = useMutation({
    mutationFn: (to: ClaimStatus) =>
      api.changeStatus(claim.id, {
        status: to,
        expectedVersion: claim.version,
        ...(note.trim() ? { note: note.trim() } : {}),
        ...(needsReason && reason ? { reason } : {}),
      }),
    onSuccess: async (next) => {
      setDone(`Status changed to ${CLAIM_STATUS_LABELS[next.status]}.`);
      setStatus('');
      setNote('');
      setReason('');
      await updated(next);
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    if (!status) {
      setProblem('Choose the new status.');
      return;
    }
    if (needsReason && !reason) {
      setProblem('Choose a reason: this claim has no resolution.');
      return;
    }
    setProblem(null);
    change.mutate(status);
  }
  const conflict = isHttpError(change.error, 409, 'version_conflict');
  return (
    <ToolCard title="Change status">
      <form className="stack" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-status`}>New status</label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(e) => {
              const parsed = ClaimStatus.safeParse(e.target.value);
              setStatus(parsed.success ? parsed.data : '');
            }}
          >
            <option value="">Choose a status</option>
            <Options values={claim.allowedTransitions} label={(s) => CLAIM_STATUS_LABELS[s]} />
          </select>
        </div>
        {needsReason ? (
          <div className="field">
            <label htmlFor={`${id}-reason`}>Reason (required)</label>
            <select
              id={`${id}-reason`}
              value={reason}
              aria-required
              onChange={(e) => {
                const parsed = ResolutionReason.safeParse(e.target.value);
                setReason(parsed.success ? parsed.data : '');
              }}
            >
              <option value="">Choose a reason</option>
              <Options values={ResolutionReason.options} label={(r) => RESOLUTION_REASON_LABELS[r]} />
            </select>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-note`}>Note (optional)</label>
          <textarea
            id={`${id}-note`}
            rows={2}
            maxLength={2_000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
        {problem ? <Alert>{problem}</Alert> : null}
        {conflict ? (
          <ConflictAlert
            onReload={() => {
              change.reset();
              void updated();
            }}
          />
        ) : null}
        {change.isError && !conflict ? <Alert>{errorText(change.error)}</Alert> : null}
        {done ? <Alert tone="success">{done}</Alert> : null}
        <div className="actions">
          <button type="submit" className="button button-secondary" disabled={change.isPending}>
            Change status
          </button>
        </div>
      </form>
    </ToolCard>
  );
}
