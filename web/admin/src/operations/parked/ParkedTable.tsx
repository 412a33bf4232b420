import { useState, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert } from '@claims/ui/components';
import { ConfirmDialog } from '../../shared/components/ConfirmDialog.js';
import { DataTable } from '../../shared/components/DataTable.js';
import { operationsQueries } from '../queries.js';
import { operationsErrorText } from '../errorText.js';

/** What can be done with something parked: retried, or (once confirmed) skipped for good, and what each says after. */
export interface ParkedActions<T> {
  retry: (item: T) => Promise<unknown>;
  skip: (item: T) => Promise<unknown>;
  retried: (item: T) => string;
  skipped: (item: T) => string;
  /** The accessible names of an item's Retry and Skip buttons. */
  retryLabel: (item: T) => string;
  skipLabel: (item: T) => string;
}

/**
 * What a reader or the delivery schedule set aside after every try: listed, and, for who may act, retried or
 * skipped; either outcome is said above the list.
 */
export function ParkedTable<T>({
  parked,
  mayAct,
  none,
  caption,
  heads,
  rowKey,
  cells,
  actions,
  confirm,
}: {
  parked: readonly T[];
  mayAct: boolean;
  none: string;
  caption: string;
  heads: ReactNode;
  rowKey: (item: T) => string;
  cells: (item: T) => ReactNode;
  actions: ParkedActions<T>;
  confirm: { title: string; label: string; body: (item: T) => ReactNode };
}) {
  const client = useQueryClient();
  const [skipping, setSkipping] = useState<T | null>(null);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  const done = async (text: string) => {
    setOutcome({ tone: 'success', text });
    setSkipping(null);
    await client.invalidateQueries({ queryKey: operationsQueries.state().queryKey });
  };
  const failed = (error: unknown) => {
    setSkipping(null);
    setOutcome({ tone: 'danger', text: operationsErrorText(error) });
  };
  const retry = useMutation({
    mutationFn: actions.retry,
    onSuccess: (_result, item) => done(actions.retried(item)),
    onError: failed,
  });
  const skip = useMutation({
    mutationFn: actions.skip,
    onSuccess: (_result, item) => done(actions.skipped(item)),
    onError: failed,
  });
  return (
    <>
      {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
      {parked.length === 0 ? (
        <p>{none}</p>
      ) : (
        <DataTable caption={caption} captionHidden>
          <thead>
            <tr>
              {heads}
              {mayAct ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {parked.map((item) => (
              <tr key={rowKey(item)}>
                {cells(item)}
                {mayAct ? (
                  <td>
                    <div className="actions">
                      <button
                        type="button"
                        className="button button-secondary"
                        disabled={retry.isPending}
                        aria-label={actions.retryLabel(item)}
                        onClick={() => retry.mutate(item)}
                      >
                        Retry
                      </button>
                      <button
                        type="button"
                        className="button button-secondary"
                        aria-label={actions.skipLabel(item)}
                        onClick={() => setSkipping(item)}
                      >
                        Skip
                      </button>
                    </div>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
      <ConfirmDialog
        open={skipping !== null}
        title={confirm.title}
        confirmLabel={confirm.label}
        busy={skip.isPending}
        onConfirm={() => {
          if (skipping) skip.mutate(skipping);
        }}
        onClose={() => setSkipping(null)}
      >
        {skipping ? confirm.body(skipping) : null}
      </ConfirmDialog>
    </>
  );
}
