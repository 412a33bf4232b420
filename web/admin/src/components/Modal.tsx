import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/**
 * A native modal dialog (focus stays inside, Escape closes, focus returns to the opener), labelled by
 * its title. Rendered only while open so its contents start fresh each time.
 */
export function Modal({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="modal" aria-labelledby={`${id}-title`} onClose={onClose}>
      {open ? (
        <div className="modal-body">
          <h2 id={`${id}-title`}>{title}</h2>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}

/** A confirmation: the question, a primary action and Cancel (which has focus first). */
export function ConfirmDialog({ open, title, children, confirmLabel, busy, onConfirm, onClose }: {
  open: boolean; title: string; children: ReactNode; confirmLabel: string; busy?: boolean; onConfirm: () => void; onClose: () => void;
}) {
  return (
    <Modal open={open} title={title} onClose={onClose}>
      {children}
      <div className="actions">
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy}>{confirmLabel}</button>
        <button type="button" className="button button-secondary" onClick={onClose} autoFocus>Cancel</button>
      </div>
    </Modal>
  );
}

/**
 * A secret shown once: read-only, selectable, with a copy button that says whether copying worked
 * (the clipboard may be refused; the text can still be selected by hand).
 */
export function SecretValue({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState<string | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copying was not allowed here: select the text and copy it by hand.');
    }
  }
  return (
    <div className="stack">
      <div className="field">
        <label htmlFor={`${id}-value`}>{label}</label>
        <input id={`${id}-value`} type="text" className="secret" readOnly value={value} onFocus={(e) => e.target.select()} aria-describedby={`${id}-hint`} />
        <p id={`${id}-hint`} className="hint">Shown only this once. Store it somewhere safe before closing.</p>
      </div>
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={() => void copy()}>Copy<span className="visually-hidden"> {label}</span></button>
        <p role="status" className="muted copy-status">{copied}</p>
      </div>
    </div>
  );
}
