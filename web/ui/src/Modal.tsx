import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Closed dialogs may stay mounted; without it the dialog is open while mounted. */
  open?: boolean;
  /** A line shown above the title (e.g. "Product 1 / 3"). */
  eyebrow?: ReactNode;
}

/**
 * A native modal dialog (aria-modal, labelled by its title): the page behind is inert, Tab and
 * Shift+Tab wrap inside it, Escape asks the owner to close it, and focus returns to what had it
 * before. The contents mount only once the dialog is open, so they start fresh each time and an
 * `autoFocus` field takes the focus; without one, the first control does.
 */
export function Modal({ title, onClose, children, open = true, eyebrow }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [shown, setShown] = useState(false);
  const closingOurselves = useRef(false);

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    setShown(true);
    return () => {
      setShown(false);
      closingOurselves.current = true;
      dialog.close();
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    };
  }, [open]);

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!shown || !dialog || (dialog.contains(document.activeElement) && document.activeElement !== dialog)) return;
    dialog.querySelector<HTMLElement>(FOCUSABLE)?.focus();
  }, [shown]);

  function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab') return;
    const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (el) => el.getClientRects().length > 0,
    );
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && (document.activeElement === first || document.activeElement === event.currentTarget)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={ref}
      className="modal"
      aria-modal="true"
      aria-labelledby={titleId}
      onKeyDown={trapTab}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // The browser may close a dialog on its own (a repeated Escape): the owner hears of it.
      onClose={() => {
        if (closingOurselves.current) closingOurselves.current = false;
        else onClose();
      }}
    >
      {open && shown ? (
        <div className="modal-body">
          {eyebrow}
          <h2 id={titleId}>{title}</h2>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
