import { useEffect, useRef } from 'react';

export const SHORTCUTS: ReadonlyArray<readonly [string, string]> = [
  ['j or ↓', 'Move to the next claim'],
  ['k or ↑', 'Move to the previous claim'],
  ['Enter', 'Open the selected claim'],
  ['/', 'Search claims'],
  ['?', 'Show these shortcuts'],
  ['Esc', 'Close this dialog'],
];

/** The keyboard shortcuts, in a native modal dialog (focus stays inside; Escape closes). */
export function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="modal" aria-labelledby="help-title" onClose={onClose}>
      <div className="modal-body">
        <h2 id="help-title">Keyboard shortcuts</h2>
        <table className="shortcuts">
          <caption className="visually-hidden">Keys of the claim queue</caption>
          <thead><tr><th scope="col">Key</th><th scope="col">Action</th></tr></thead>
          <tbody>
            {SHORTCUTS.map(([key, action]) => (
              <tr key={key}><td><kbd>{key}</kbd></td><td>{action}</td></tr>
            ))}
          </tbody>
        </table>
        <div className="actions">
          <button type="button" className="button button-primary" onClick={onClose}>Close</button>
        </div>
      </div>
    </dialog>
  );
}
