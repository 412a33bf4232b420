import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminClaimDetail } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { Alert } from '@claims/ui/components';
import { api, isHttpError } from '../../shared/api.js';
import { claimQueries } from '../queries.js';

/**
 * Who works the claim: anyone who may update it can take it, give it to a teammate who can work the
 * store's claims, or leave it to nobody. Saved at the version shown, so a change made meanwhile is a 409.
 */
export function AssignmentSection({
  claim,
  me,
  canAssign,
}: {
  claim: AdminClaimDetail;
  me: { id: string; name: string };
  canAssign: boolean;
}) {
  const id = useId();
  const client = useQueryClient();
  const teammates = useQuery({ ...claimQueries.assignees(claim.id), enabled: canAssign });
  const [choice, setChoice] = useState<string>(claim.assignee?.id ?? '');
  const [note, setNote] = useState<string | null>(null);
  // Someone else may hand the claim on meanwhile: a reloaded claim shows its assignee.
  const current = claim.assignee?.id ?? '';
  useEffect(() => setChoice(current), [current]);
  const assign = useMutation({
    mutationFn: (assigneeId: string | null) => api.assign(claim.id, assigneeId, claim.version),
    onSuccess: async (updated) => {
      client.setQueryData(claimQueries.detail(claim.id).queryKey, updated);
      setChoice(updated.assignee?.id ?? '');
      setNote(
        updated.assignee
          ? `Claim #${updated.claimNumber} is assigned to ${updated.assignee.id === me.id ? 'you' : updated.assignee.name}.`
          : `Claim #${updated.claimNumber} is unassigned.`,
      );
      await Promise.all([
        client.invalidateQueries({ queryKey: claimQueries.detail(claim.id).queryKey }),
        client.invalidateQueries({ queryKey: claimQueries.timeline(claim.id).queryKey }),
        client.invalidateQueries({ queryKey: claimQueries.lists() }),
      ]);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNote(null);
    assign.mutate(choice || null);
  }

  const people = teammates.data?.data ?? [];
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Assignment</h2>
      <p>
        Assigned to{' '}
        <strong>
          {claim.assignee
            ? claim.assignee.id === me.id
              ? `you (${claim.assignee.name})`
              : claim.assignee.name
            : 'nobody'}
        </strong>
      </p>
      {canAssign ? (
        <div className="stack">
          {claim.assignee?.id !== me.id ? (
            <div>
              <button
                type="button"
                className="button button-secondary"
                disabled={assign.isPending}
                onClick={() => {
                  setNote(null);
                  assign.mutate(me.id);
                }}
              >
                Assign to me
              </button>
            </div>
          ) : null}
          <form className="inline-form" onSubmit={onSubmit}>
            <div className="field">
              <label htmlFor={`${id}-who`}>Assign to</label>
              <select
                id={`${id}-who`}
                value={choice}
                onChange={(e) => setChoice(e.target.value)}
                disabled={teammates.isPending}
              >
                <option value="">Nobody (unassigned)</option>
                {people.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.id === me.id ? `${p.name} (me)` : p.name}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="button button-secondary" disabled={assign.isPending}>
              Save assignment
            </button>
          </form>
          {teammates.isError ? <Alert>The teammates could not be loaded: {teammates.error.message}</Alert> : null}
          {assign.isError ? (
            <Alert>
              {isHttpError(assign.error, 409)
                ? 'This claim changed while you were working on it. Reload it and try again.'
                : errorText(assign.error)}
            </Alert>
          ) : null}
        </div>
      ) : null}
      <p role="status" className="muted">
        {note}
      </p>
    </section>
  );
}
