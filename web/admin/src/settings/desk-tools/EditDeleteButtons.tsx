/** A listed item's Edit and Delete buttons (each shown when given), naming the item to a screen reader. */
export function EditDeleteButtons({
  name,
  onEdit,
  onDelete,
}: {
  name: string;
  onEdit: (() => void) | null;
  onDelete: (() => void) | null;
}) {
  return (
    <>
      {onEdit ? (
        <button type="button" className="button button-secondary" onClick={onEdit}>
          Edit<span className="visually-hidden"> {name}</span>
        </button>
      ) : null}
      {onDelete ? (
        <button type="button" className="button button-link" onClick={onDelete}>
          Delete<span className="visually-hidden"> {name}</span>
        </button>
      ) : null}
    </>
  );
}
