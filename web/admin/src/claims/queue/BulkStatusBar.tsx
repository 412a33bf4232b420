import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CLAIM_STATUS_LABELS,
  ClaimStatus,
  type AdminClaimListItem,
  type BulkStatusOutcome,
  type BulkStatusResponse,
} from '@claims/contracts';
import { statusChangePermission, statusChangeTargets } from '@claims/domain';
import { errorText } from '@claims/ui';
import { pluralize } from '@claims/format';
import { api } from '../../shared/api.js';
import { can, useMe } from '../../shared/session.js';
import { Alert, ColumnHeads } from '@claims/ui/components';
import { claimQueries } from '../queries.js';
import { Options } from '../../shared/components/Options.js';

export const OUTCOME_LABELS: Record<BulkStatusOutcome, string> = {
  ok: 'Changed',
  conflict: 'Changed by someone else first',
  invalid_transition: 'Cannot move to that status',
  not_found: 'Not found',
  forbidden: 'Not allowed',
};

/** The statuses every one of these claims may move to (in the status list's order). */
export function commonTransitions(lists: ReadonlyArray<readonly ClaimStatus[]>): ClaimStatus[] {
  if (lists.length === 0) return [];
  return ClaimStatus.options.filter((s) => lists.every((list) => list.includes(s)));
}

/**
 * The selected claims moved to one status (`POST /api/admin/claims/bulk-status`). The queue's rows
 * carry each claim's status and version: only the statuses the domain's transition table allows for
 * all of them are offered, and each claim is sent with the version listed, so one changed since the
 * list was read answers `conflict`.
 */
export function BulkStatusBar({ selected, onClear }: { selected: readonly AdminClaimListItem[]; onClear: () => void }) {
  const id = useId();
  const client = useQueryClient();
  const [to, setTo] = useState<ClaimStatus | ''>('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [answer, setAnswer] = useState<{
    response: BulkStatusResponse;
    numbers: Record<string, string>;
    to: ClaimStatus;
  } | null>(null);
  const me = useMe();
  // The moves a status change may make (never a decision: that is a resolution), common to every selected claim,
  // and only those the user may make on each claim's store (closing needs claim:resolve).
  const options = commonTransitions(selected.map((c) => statusChangeTargets(c.status))).filter((to) =>
    selected.every((c) => can(me, statusChangePermission(to), c.store.id)),
  );

  const change = useMutation({
    mutationFn: (status: ClaimStatus) =>
      api.bulkStatus({
        claimIds: selected.map((c) => c.id),
        to: status,
        ...(note.trim() ? { note: note.trim() } : {}),
        expectedVersions: Object.fromEntries(selected.map((c) => [c.id, c.version])),
      }),
    onSuccess: async (response, status) => {
      setAnswer({ response, numbers: Object.fromEntries(selected.map((c) => [c.id, c.claimNumber])), to: status });
      setTo('');
      setNote('');
      if (response.results.every((r) => r.result === 'ok')) onClear();
      await Promise.all([
        client.invalidateQueries({ queryKey: claimQueries.lists() }),
        ...response.results.flatMap((r) => [
          client.invalidateQueries({ queryKey: claimQueries.detail(r.claimId).queryKey }),
          client.invalidateQueries({ queryKey: claimQueries.timeline(r.claimId).queryKey }),
        ]),
      ]);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!to) {
      setProblem('Choose the new status.');
      return;
    }
    setProblem(null);
    setAnswer(null);
    change.mutate(to);
  }

  const summary = answer
    ? Object.entries(answer.response.summary)
        .filter(([, n]) => n > 0)
        .map(([outcome, n]) => `${OUTCOME_LABELS[outcome as BulkStatusOutcome]}: ${n}`)
        .join(', ')
    : '';

  return (
    <section className="bulk-bar" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="bulk-title">
        {selected.length > 0 ? `${pluralize(selected.length, 'claim')} selected` : 'Bulk status change'}
      </h2>
      {selected.length > 0 ? (
        <form className="inline-form" onSubmit={onSubmit} noValidate>
          <div className="field">
            <label htmlFor={`${id}-to`}>Move the selected claims to</label>
            <select
              id={`${id}-to`}
              value={to}
              disabled={options.length === 0}
              onChange={(e) => {
                const parsed = ClaimStatus.safeParse(e.target.value);
                setTo(parsed.success ? parsed.data : '');
              }}
            >
              <option value="">{options.length === 0 ? 'No status they can all move to' : 'Choose a status'}</option>
              <Options values={options} label={(s) => CLAIM_STATUS_LABELS[s]} />
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-note`}>Note (optional)</label>
            <input
              id={`${id}-note`}
              type="text"
              maxLength={2_000}
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
          </div>
          <button type="submit" className="button button-primary" disabled={change.isPending || options.length === 0}>
            {change.isPending ? 'Changing…' : 'Change status'}
          </button>
          <button type="button" className="button button-secondary" onClick={onClear}>
            Clear selection
          </button>
        </form>
      ) : (
        <p className="muted">Select claims in the table to change their status together.</p>
      )}
      {selected.length > 0 && options.length === 0 ? (
        <Alert tone="info">The selected claims have no status they can all move to. Select fewer claims.</Alert>
      ) : null}
      {problem ? <Alert>{problem}</Alert> : null}
      {change.isError ? <Alert>{errorText(change.error, 'The change failed.')}</Alert> : null}
      <div role="status">
        {answer ? (
          <p
            className={
              summary.startsWith('Changed:') && answer.response.results.every((r) => r.result === 'ok')
                ? 'alert alert-success'
                : 'alert alert-warning'
            }
          >
            Moving to {CLAIM_STATUS_LABELS[answer.to]}: {summary}.
          </p>
        ) : null}
      </div>
      {answer ? (
        <table className="lines bulk-results">
          <caption>Result per claim</caption>
          <ColumnHeads columns={['Claim', 'Result', 'Status now', 'Details']} />
          <tbody>
            {answer.response.results.map((r) => (
              <tr key={r.claimId}>
                <th scope="row">#{answer.numbers[r.claimId] ?? r.claimId}</th>
                <td className={`outcome outcome-${r.result}`}>{OUTCOME_LABELS[r.result]}</td>
                <td>{r.status ? CLAIM_STATUS_LABELS[r.status] : '—'}</td>
                <td>{r.message ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
