import type { ReactNode } from 'react';
import { Alert } from '@claims/ui/components';
import { ConfirmDialog } from '../../shared/components/ConfirmDialog.js';
import type { useListEditing } from './useListEditing.js';

/** The confirmation of deleting a listed desk tool: what deleting it means (`children`), and why it failed if it did. */
export function ConfirmDelete<Item extends { id: string; version: number }, Input>({
  list,
  title,
  confirmLabel,
  children,
}: {
  list: ReturnType<typeof useListEditing<Item, Input>>;
  title: (item: Item) => string;
  confirmLabel: string;
  children: ReactNode;
}) {
  const { deleting, remove } = list;
  return (
    <ConfirmDialog
      open={deleting !== null}
      title={deleting ? title(deleting) : ''}
      confirmLabel={confirmLabel}
      busy={remove.isPending}
      onConfirm={() => {
        if (deleting) remove.mutate(deleting);
      }}
      onClose={list.cancelDelete}
    >
      {children}
      {list.deleteFailure ? <Alert>{list.deleteFailure}</Alert> : null}
    </ConfirmDialog>
  );
}
