import { useId, useMemo, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminClaimDetail } from '@claims/contracts';
import { REOPENABLE_STATUSES } from '@claims/domain';
import { errorText } from '@claims/ui';
import { Alert } from '@claims/ui/components';
import { api } from '../../shared/api.js';
import { Dialog } from '../../shared/components/Dialog.js';
import { HelpDialog } from '../shortcuts/HelpDialog.js';
import { neighbourInQueue } from '../queue/queueOrder.js';
import { focusSection, useClaimShortcuts } from './claimShortcuts.js';
import { useClaimPresence } from './useClaimPresence.js';
import { claimQueries } from '../queries.js';

/** Who else is on the claim, said once for everyone: two agents answering one customer is the mistake it prevents. */
function PresenceNotice({ claimId }: { claimId: string }) {
  const viewers = useClaimPresence(claimId);
  const names = viewers.map((v) => v.name);
  const text =
    names.length === 0
      ? null
      : names.length === 1
        ? `${names[0]} also has this claim open.`
        : `${names.slice(0, -1).join(', ')} and ${names.at(-1)} also have this claim open.`;
  return (
    <div role="status" className="presence">
      {text ? <p className="alert alert-info">{text}</p> : null}
    </div>
  );
}

function ReopenDialog({
  claim,
  open,
  onClose,
  onDone,
}: {
  claim: AdminClaimDetail;
  open: boolean;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const reopen = useMutation({
    mutationFn: () => api.reopen(claim.id, { note: note.trim() || undefined, expectedVersion: claim.version }),
    onSuccess: async (reopened) => {
      client.setQueryData(claimQueries.detail(claim.id).queryKey, reopened);
      await Promise.all([
        client.invalidateQueries({ queryKey: claimQueries.timeline(claim.id).queryKey }),
        client.invalidateQueries({ queryKey: claimQueries.lists() }),
      ]);
      onClose();
      onDone(`Claim #${claim.claimNumber} is open again.`);
    },
  });
  return (
    <Dialog open={open} title={`Reopen claim #${claim.claimNumber}?`} onClose={onClose}>
      <p>It goes back to Open, with its history and any decisions already made kept.</p>
      <div className="field">
        <label htmlFor={`${id}-note`}>Why (optional)</label>
        <textarea id={`${id}-note`} rows={2} maxLength={2_000} value={note} onChange={(e) => setNote(e.target.value)} />
      </div>
      {reopen.isError ? <Alert>{errorText(reopen.error, 'The claim could not be reopened.')}</Alert> : null}
      <div className="actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => reopen.mutate()}
          disabled={reopen.isPending}
        >
          Reopen claim
        </button>
        <button type="button" className="button button-secondary" onClick={onClose} autoFocus>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}

/**
 * The claim page's working bar: who else has the claim open (live), reopening a closed claim, and the
 * page's keyboard shortcuts (next and previous claim of the queue, reply, decide, `?`).
 */
export function ClaimDeskBar({
  claim,
  canReopen,
  onNotice,
}: {
  claim: AdminClaimDetail;
  canReopen: boolean;
  onNotice: (message: string) => void;
}) {
  const navigate = useNavigate();
  const [helpOpen, setHelpOpen] = useState(false);
  const [reopenOpen, setReopenOpen] = useState(false);
  const reopenable = canReopen && REOPENABLE_STATUSES.includes(claim.status);
  const actions = useMemo(() => {
    const go = (delta: 1 | -1) => {
      const target = neighbourInQueue(claim.id, delta);
      if (target) void navigate({ to: '/claims/view/$claimRef', params: { claimRef: target }, search: {} });
      else onNotice(`No ${delta === 1 ? 'next' : 'previous'} claim: open claims from the queue to move through it.`);
    };
    return {
      next: () => go(1),
      previous: () => go(-1),
      reply: () => {
        if (!focusSection(/^Messages/i)) onNotice('You cannot send messages on this claim.');
      },
      decide: () => {
        if (!focusSection(/^(Resolve|Decision|Decide)/i)) onNotice('This claim has nothing left to decide.');
      },
      help: () => setHelpOpen(true),
    };
  }, [claim.id, navigate, onNotice]);
  useClaimShortcuts(actions);
  return (
    <div className="claim-desk-bar">
      <PresenceNotice claimId={claim.id} />
      <div className="actions">
        {reopenable ? (
          <button type="button" className="button button-secondary" onClick={() => setReopenOpen(true)}>
            Reopen claim
          </button>
        ) : null}
        <button type="button" className="button button-link" onClick={() => setHelpOpen(true)}>
          Keyboard shortcuts <kbd>?</kbd>
        </button>
      </div>
      {reopenable ? (
        <ReopenDialog claim={claim} open={reopenOpen} onClose={() => setReopenOpen(false)} onDone={onNotice} />
      ) : null}
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} page="claim" />
    </div>
  );
}
