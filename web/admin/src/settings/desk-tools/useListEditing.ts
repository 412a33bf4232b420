import { useState } from 'react';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/** A listed item the server versions: what an edit and a delete send back as the version they saw. */
interface Versioned {
  id: string;
  version: number;
}

/**
 * Editing a listed kind of desk tool (macros, SOPs): which form is open (none, a new item, or one item's edit), the
 * item awaiting its delete confirmation, the notice after a change, and the save and delete that refresh the list.
 */
export function useListEditing<Item extends Versioned, Input>(options: {
  queryKey: QueryKey;
  /** Creates (`editing` null) or updates the item. */
  save: (input: Input, editing: Item | null) => Promise<Item>;
  remove: (item: Item) => Promise<unknown>;
  savedNotice: (saved: Item, created: boolean) => string;
  deletedNotice: (item: Item) => string;
  /** Where focus goes once the deleted item's row is gone. */
  focusAfterDelete: () => void;
  /** Why a save or a delete failed, in the reader's words. */
  failureText: (error: unknown) => string;
}) {
  const client = useQueryClient();
  const [editing, setEditing] = useState<null | 'new' | Item>(null);
  const [deleting, setDeleting] = useState<Item | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: options.queryKey });
  const save = useMutation({
    mutationFn: (input: Input) => options.save(input, editing === 'new' ? null : editing),
    onSuccess: async (saved) => {
      setNotice(options.savedNotice(saved, editing === 'new'));
      setEditing(null);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: options.remove,
    onSuccess: async (_, item) => {
      setNotice(options.deletedNotice(item));
      setDeleting(null);
      await refresh();
      options.focusAfterDelete();
    },
  });
  /** Opens a form (or closes it, with null), clearing what the last one said. */
  const open = (next: null | 'new' | Item) => {
    save.reset();
    setNotice(null);
    setEditing(next);
  };
  const askDelete = (item: Item) => {
    remove.reset();
    setDeleting(item);
  };
  const close = () => setEditing(null);
  return {
    editing,
    deleting,
    notice,
    setNotice,
    refresh,
    save,
    remove,
    open,
    askDelete,
    close,
    cancelDelete: () => setDeleting(null),
    /** What the open form is told: whether it is being saved, why the save failed, and how to save or leave it. */
    formProps: {
      busy: save.isPending,
      error: save.isError ? options.failureText(save.error) : null,
      onSave: (input: Input) => save.mutate(input),
      onCancel: close,
    },
    deleteFailure: remove.isError ? options.failureText(remove.error) : null,
  };
}
