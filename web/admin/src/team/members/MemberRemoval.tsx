import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { TeamMember } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { Alert } from '@claims/ui/components';
import { ConfirmDialog } from '../../shared/components/ConfirmDialog.js';

/**
 * Removing a member from a list of members: the one awaiting confirmation, and the removal, which says what it did
 * and refreshes the list.
 */
export function useMemberRemoval({
  remove,
  queryKey,
  onRemoved,
}: {
  remove: (member: TeamMember) => Promise<unknown>;
  queryKey: QueryKey;
  onRemoved: (member: TeamMember) => void;
}) {
  const client = useQueryClient();
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: async (_, member) => {
      setRemoving(null);
      onRemoved(member);
      await client.invalidateQueries({ queryKey });
    },
  });
  return {
    removing,
    mutation,
    ask: (member: TeamMember) => {
      mutation.reset();
      setRemoving(member);
    },
    cancel: () => setRemoving(null),
  };
}

/** The confirmation of a member's removal: what the member loses (`children`), and why the removal failed if it did. */
export function RemoveMemberDialog({
  removal,
  confirmLabel,
  children,
}: {
  removal: ReturnType<typeof useMemberRemoval>;
  confirmLabel: string;
  children: (member: TeamMember) => ReactNode;
}) {
  const { removing, mutation } = removal;
  return (
    <ConfirmDialog
      open={removing !== null}
      title={`Remove ${removing?.name ?? 'member'}?`}
      confirmLabel={confirmLabel}
      busy={mutation.isPending}
      onConfirm={() => {
        if (removing) mutation.mutate(removing);
      }}
      onClose={removal.cancel}
    >
      {removing ? children(removing) : null}
      {mutation.isError ? <Alert>{errorText(mutation.error)}</Alert> : null}
    </ConfirmDialog>
  );
}
