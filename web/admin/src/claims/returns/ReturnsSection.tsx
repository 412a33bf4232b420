import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  RETURN_METHOD_LABELS,
  RETURN_REASON_LABELS,
  RETURN_STATUS_LABELS,
  RETURN_STATUS_MOVES,
  type ClaimReturn,
  type ReturnStatus,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { ToolCard } from '../../shared/components/ui.js';
import { returnsApi } from './returnsApi.js';
import { claimQueries, returnQueries } from '../queries.js';

/** What the button that makes each move says. */
const MOVE_VERBS: Readonly<Record<ReturnStatus, string>> = {
  REDIRECTED: 'Send to the store portal',
  REQUESTED: 'Reopen',
  APPROVED: 'Approve',
  RECEIVED: 'Mark received',
  COMPLETED: 'Complete',
  REJECTED: 'Reject',
  CANCELLED: 'Cancel',
};

function ReturnCard({
  claimId,
  item,
  version,
  canUpdate,
}: {
  claimId: string;
  item: ClaimReturn;
  version: number;
  canUpdate: boolean;
}) {
  const client = useQueryClient();
  const noteId = useId();
  const [note, setNote] = useState('');
  const move = useMutation({
    mutationFn: (to: ReturnStatus) =>
      returnsApi.move(claimId, item.id, {
        to,
        expectedVersion: version,
        ...(note.trim() ? { note: note.trim() } : {}),
      }),
    onSuccess: async () => {
      setNote('');
      await Promise.all([
        client.invalidateQueries({ queryKey: returnQueries.ofClaim(claimId).queryKey }),
        client.invalidateQueries({ queryKey: claimQueries.timeline(claimId).queryKey }),
        client.invalidateQueries({ queryKey: returnQueries.lists() }),
      ]);
    },
  });
  const moves = RETURN_STATUS_MOVES[item.status];
  return (
    <li className="return-card stack">
      <p>
        <strong>Return {item.code}</strong> ·{' '}
        <span className="badge badge-neutral">{RETURN_STATUS_LABELS[item.status]}</span>
      </p>
      <p className="muted">
        {item.handling === 'store_portal' ? "On the store's returns portal" : 'Handled here, with a label'} ·{' '}
        {RETURN_REASON_LABELS[item.reason]} · {RETURN_METHOD_LABELS[item.method]} · started{' '}
        {formatDateTime(item.startedAt)}
      </p>
      <ul>
        {item.items.map((i) => (
          <li key={i.claimItemId}>
            {i.name} ({i.sku}) × {i.quantity}
          </li>
        ))}
      </ul>
      {item.comment ? <p>Customer: {item.comment}</p> : null}
      {canUpdate && moves.length > 0 ? (
        <div className="stack">
          <div className="field">
            <label htmlFor={noteId}>Note for return {item.code} (optional)</label>
            <input id={noteId} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
          </div>
          <div className="inline-form">
            {moves.map((to) => (
              <button
                key={to}
                type="button"
                className={
                  to === 'REJECTED' || to === 'CANCELLED' ? 'button button-secondary' : 'button button-primary'
                }
                disabled={move.isPending}
                onClick={() => move.mutate(to)}
              >
                {MOVE_VERBS[to]}
                <span className="visually-hidden"> return {item.code}</span>
              </button>
            ))}
          </div>
        </div>
      ) : null}
      {move.isError ? <Alert>{errorText(move.error, 'The return could not be moved. Try again.')}</Alert> : null}
    </li>
  );
}

/** The claim's returns on its desk page: read with returns:read, moved with returns:update. */
export function ReturnsSection({ claimId, canUpdate }: { claimId: string; canUpdate: boolean }) {
  const returns = useQuery(returnQueries.ofClaim(claimId));
  return (
    <ToolCard title="Returns">
      {returns.isError ? (
        <Alert>{errorText(returns.error, 'The returns could not be loaded. Try again.')}</Alert>
      ) : null}
      {returns.data && returns.data.data.length === 0 ? (
        <p className="muted">The customer has started no return.</p>
      ) : null}
      {returns.data && returns.data.data.length > 0 ? (
        <ul className="plain stack">
          {returns.data.data.map((r) => (
            <ReturnCard key={r.id} claimId={claimId} item={r} version={returns.data.version} canUpdate={canUpdate} />
          ))}
        </ul>
      ) : null}
    </ToolCard>
  );
}
