import { Modal } from '@claims/ui/components';

export const SHORTCUTS: ReadonlyArray<readonly [string, string]> = [
  ['j or ↓', 'Move to the next claim'],
  ['k or ↑', 'Move to the previous claim'],
  ['Enter', 'Open the selected claim'],
  ['/', 'Search claims'],
  ['?', 'Show these shortcuts'],
  ['Esc', 'Close this dialog'],
];

/** The keyboard shortcuts of the claim queue. */
export function HelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title="Keyboard shortcuts" onClose={onClose}>
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
    </Modal>
  );
}
