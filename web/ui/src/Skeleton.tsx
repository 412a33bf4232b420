/**
 * Grey bars where content is loading: the layout holds its shape instead of jumping, and a screen reader hears
 * `label` once (the bars themselves are hidden from it).
 */
export function Skeleton({ lines = 3, label = 'Loading…' }: { lines?: number; label?: string }) {
  return (
    <div className="ui-skeleton" role="status">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: lines }, (_, index) => (
        <span key={index} className="ui-skeleton-line" aria-hidden="true" />
      ))}
    </div>
  );
}
