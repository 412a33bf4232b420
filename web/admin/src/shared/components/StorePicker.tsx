import { useId } from 'react';
import { z } from 'zod';
import type { StoreRef } from '@claims/contracts';

/** The `?store=` of a per-store page, which its StorePicker sets. */
export const StoreSearch = z.object({ store: z.uuid().optional().catch(undefined) });

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
  const id = useId();
  if (stores.length <= 1) return null;
  return (
    <div className="field field-inline">
      <label htmlFor={`${id}-store`}>Store</label>
      <select id={`${id}-store`} value={value} onChange={(e) => onChange(e.target.value)}>
        {stores.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
    </div>
  );
}
