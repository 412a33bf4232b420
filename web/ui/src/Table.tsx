import type { ReactNode } from 'react';

/**
 * A data table in a frame that scrolls sideways on a narrow screen. The frame is a region that takes focus, so a
 * keyboard user can scroll it too, named "<caption>, table" (apart from a section the caption may repeat the heading
 * of); the caption names the table (hidden when a heading already says it).
 */
export function Table({
  caption,
  captionHidden = false,
  className,
  children,
}: {
  caption: string;
  captionHidden?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="ui-table-wrap" role="region" aria-label={`${caption}, table`} tabIndex={0}>
      <table className={['ui-table', className].filter(Boolean).join(' ')}>
        <caption className={captionHidden ? 'visually-hidden' : 'ui-table-caption'}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

/**
 * A table's head row, where its column heads are plain words; `actions` adds a last column of row actions, its head
 * said to a screen reader only.
 */
export function ColumnHeads({ columns, actions = false }: { columns: readonly string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col">
            {column}
          </th>
        ))}
        {actions ? (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
