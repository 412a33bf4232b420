import * as Popover from '@radix-ui/react-popover';
import type { useTable } from '@tanstack/react-table';
import type { AdminClaimListItem } from '@claims/contracts';
import type { features } from './columns.js';

/** Which columns the queue shows, in a popover (Radix: focus moves in, Escape or a click outside closes it, focus returns to the button). */
export function ColumnChooser({ table }: { table: ReturnType<typeof useTable<typeof features, AdminClaimListItem>> }) {
  return (
    <Popover.Root>
      <Popover.Trigger className="button button-secondary">Columns</Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover" align="start" sideOffset={4} aria-label="Columns to show">
          <fieldset>
            <legend className="visually-hidden">Columns to show</legend>
            {table
              .getAllLeafColumns()
              .filter((c) => c.getCanHide())
              .map((column) => (
                <label key={column.id} className="checkbox">
                  <input
                    type="checkbox"
                    checked={column.getIsVisible()}
                    onChange={(e) => column.toggleVisibility(e.target.checked)}
                  />
                  {typeof column.columnDef.header === 'string' ? column.columnDef.header : column.id}
                </label>
              ))}
          </fieldset>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
