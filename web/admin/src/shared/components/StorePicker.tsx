import { useId } from 'react';
import { z } from 'zod';
import type { StoreRef } from '@claims/contracts';

/** The `?store=` of a per-store page, which its StorePicker sets. */
export const StoreSearch = z.object({ store: z.uuid().optional().catch(undefined) });

/**
 * The labelled select of one of the user's stores. A filter names its choice of no one store in `anyStore` (the
 * empty value); without it a store must be chosen.
 */
export function StoreSelect({
  stores,
  value,
  onChange,
  anyStore,
  inline = false,
}: {
  stores: readonly StoreRef[];
  value: string;
  onChange: (storeId: string) => void;
  anyStore?: string;
  inline?: boolean;
}) {
  const id = useId();
  return (
    <div className={inline ? 'field field-inline' : 'field'}>
      <label htmlFor={`${id}-store`}>Store</label>
      <select id={`${id}-store`} value={value} onChange={(e) => onChange(e.target.value)}>
        {anyStore === undefined ? null : <option value="">{anyStore}</option>}
        {stores.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Which store a per-store page shows; a single store needs no choice. */
export function StorePicker({
  stores,
  value,
  onChange,
}: {
  stores: readonly StoreRef[];
  value: string;
  onChange: (storeId: string) => void;
}) {
  if (stores.length <= 1) return null;
  return <StoreSelect stores={stores} value={value} onChange={onChange} inline />;
}
