import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorText } from '@claims/ui';
import { Alert } from '@claims/ui/components';
import { ConfirmDialog } from '../../shared/components/ConfirmDialog.js';
import { automationApi } from '../automationApi.js';
import { ruleQueries } from '../queries.js';

/**
 * The store's kill switch, as a banner saying whether rules act, and (for those who may update) the button that
 * pauses every rule after a confirmation, or resumes them.
 */
export function KillSwitch({
  storeId,
  paused,
  mayUpdate,
  announce,
}: {
  storeId: string;
  paused: boolean;
  mayUpdate: boolean;
  announce: (message: string) => void;
}) {
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const flip = useMutation({
    mutationFn: (next: boolean) => automationApi.pause(storeId, next),
    onSuccess: (list) => {
      client.setQueryData(ruleQueries.list(storeId).queryKey, list);
      setConfirming(false);
      announce(list.paused ? 'Every rule is paused.' : 'Rules are on again.');
    },
  });
  return (
    <div className={`alert ${paused ? 'alert-warning' : 'alert-success'} kill-switch`}>
      <p>
        <strong>{paused ? 'All rules are paused.' : 'Rules are on.'}</strong>{' '}
        {paused
          ? 'No rule decides or records anything until they are resumed; every claim waits for a person.'
          : 'Live rules decide matching claims as they are filed; shadow rules record what they would have done.'}
      </p>
      {mayUpdate ? (
        <div className="actions">
          {paused ? (
            <button
              type="button"
              className="button button-primary"
              disabled={flip.isPending}
              onClick={() => flip.mutate(false)}
            >
              Resume rules
            </button>
          ) : (
            <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
              Pause all rules
            </button>
          )}
        </div>
      ) : null}
      {flip.isError && !confirming ? <Alert>The switch did not change: {errorText(flip.error)}</Alert> : null}
      <ConfirmDialog
        open={confirming}
        title="Pause every rule of this store?"
        confirmLabel="Pause all rules"
        busy={flip.isPending}
        onConfirm={() => flip.mutate(true)}
        onClose={() => setConfirming(false)}
      >
        <p>
          No rule will decide a claim or record what it would have done until you resume them. Claims filed meanwhile
          wait for a person.
        </p>
        {flip.isError ? <Alert>The switch did not change: {errorText(flip.error)}</Alert> : null}
      </ConfirmDialog>
    </div>
  );
}
