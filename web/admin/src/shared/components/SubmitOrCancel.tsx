import type { ReactNode } from 'react';

/** A form's last row: its submit button (held while the form is sent) and Cancel, which leaves it unsent. */
export function SubmitOrCancel({
  submit,
  busy,
  onCancel,
  primary = true,
}: {
  submit: ReactNode;
  busy: boolean;
  onCancel: () => void;
  primary?: boolean;
}) {
  return (
    <div className="actions">
      <button type="submit" className={primary ? 'button button-primary' : 'button'} disabled={busy}>
        {submit}
      </button>
      <button type="button" className="button button-secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
