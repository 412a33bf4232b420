import type { ReactNode } from 'react';
import { ColumnHeads } from '@claims/ui/components';

/**
 * A back-office data table in a frame that scrolls sideways on a narrow screen. The caption names the table (hidden
 * where a heading already says it); a frame given a `regionLabel` takes focus, so a keyboard user can scroll it too.
 * Column heads that are plain words come as `columns` (with `actions`, a last column of row actions); others are
 * written in the children's own <thead>.
 */
export function DataTable({
  caption,
  captionHidden = false,
  regionLabel,
  columns,
  actions = false,
  children,
}: {
  caption?: ReactNode;
  captionHidden?: boolean;
  regionLabel?: string;
  columns?: readonly string[];
  actions?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="table-wrap" {...(regionLabel ? { tabIndex: 0, role: 'region', 'aria-label': regionLabel } : {})}>
      <table className="claims-table">
        {caption === undefined ? null : (
          <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
        )}
        {columns ? <ColumnHeads columns={columns} actions={actions} /> : null}
        {children}
      </table>
    </div>
  );
}
