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

/** A table's head row, where its column heads are plain words. */
export function ColumnHeads({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}
