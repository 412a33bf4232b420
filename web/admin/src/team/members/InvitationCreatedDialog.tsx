import { formatLongDate } from '@claims/format';
import { Dialog } from '../../shared/components/Dialog.js';

/** What the inviter learns of an invitation: never its token, which only the invitee receives. */
export interface Invited {
  email: string;
  pending: boolean;
  expiresAt: string;
}

/** Says who the invitation went to and until when it is good (an existing user accepts it signed in). */
export function InvitationCreatedDialog({ invited, onClose }: { invited: Invited | null; onClose: () => void }) {
  return (
    <Dialog open={invited !== null} title="Invitation created" onClose={onClose}>
      {invited ? (
        invited.pending ? (
          <p>
            <strong>{invited.email}</strong> already has an account: the role takes effect once they accept it, signed
            in, before {formatLongDate(invited.expiresAt)}.
          </p>
        ) : (
          <p>
            <strong>{invited.email}</strong> is mailed a one-time link to set their password, good until{' '}
            {formatLongDate(invited.expiresAt)}. Only they receive it; the member list shows when it was mailed.
          </p>
        )
      ) : null}
      <div className="actions">
        <button type="button" className="button button-primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
