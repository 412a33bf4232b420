import { useRef, useState, type ReactNode } from 'react';
import * as RadixDialog from '@radix-ui/react-dialog';

/**
 * The back-office's modal dialog, on Radix's Dialog: focus moves in and is trapped, the page behind is
 * hidden from assistive technology and inert, Escape or a click outside asks the owner to close it, and
 * focus returns to what had it. The contents mount only while open, so they start fresh each time.
 * No Radix Overlay: its scroll lock injects a <style> element, which the apps' CSP (style-src 'self')
 * refuses; the backdrop is the content's own shadow (styles.css), and the page behind is inert anyway.
 */
export function Dialog({
  open,
  title,
  onClose,
  eyebrow,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  eyebrow?: ReactNode;
  children: ReactNode;
}) {
  // Radix hands focus back to its Trigger; these dialogs are opened by the owner's own buttons, so the
  // element that had focus when the dialog opened is remembered (read while rendering, before any autoFocus moves it).
  const opener = useRef<Element | null>(null);
  const [wasOpen, setWasOpen] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) opener.current = document.activeElement;
  }
  return (
    <RadixDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
    >
      <RadixDialog.Portal>
        {/* The dialogs say what they are about in their title and body: no separate description. */}
        <RadixDialog.Content
          className="modal dialog"
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener.current instanceof HTMLElement && opener.current.isConnected)
              opener.current.focus({ preventScroll: true });
          }}
        >
          <div className="modal-body">
            {eyebrow}
            <RadixDialog.Title asChild>
              <h2>{title}</h2>
            </RadixDialog.Title>
            {children}
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
