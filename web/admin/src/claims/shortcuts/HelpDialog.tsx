import * as Tabs from '@radix-ui/react-tabs';
import { Dialog } from '../../shared/components/Dialog.js';
import { ColumnHeads } from '@claims/ui/components';

type Shortcuts = ReadonlyArray<readonly [string, string]>;

export const QUEUE_SHORTCUTS: Shortcuts = [
  ['j or ↓', 'Move to the next claim'],
  ['k or ↑', 'Move to the previous claim'],
  ['Enter', 'Open the selected claim'],
  ['/', 'Search claims'],
  ['?', 'Show these shortcuts'],
  ['Esc', 'Close this dialog'],
];

/** The claim page's keys (../claim/claimShortcuts.ts acts on them). */
export const CLAIM_SHORTCUTS: Shortcuts = [
  ['j', 'Open the next claim of the queue'],
  ['k', 'Open the previous claim of the queue'],
  ['r', 'Reply to the customer'],
  ['d', 'Decide: go to the resolution'],
  ['?', 'Show these shortcuts'],
  ['Esc', 'Close this dialog'],
];

export type ShortcutPage = 'queue' | 'claim';

function ShortcutTable({ caption, shortcuts }: { caption: string; shortcuts: Shortcuts }) {
  return (
    <table className="shortcuts">
      <caption className="visually-hidden">{caption}</caption>
      <ColumnHeads columns={['Key', 'Action']} />
      <tbody>
        {shortcuts.map(([key, action]) => (
          <tr key={key}>
            <td>
              <kbd>{key}</kbd>
            </td>
            <td>{action}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The keyboard shortcuts of the queue and of the claim page, one tab each (Radix Tabs: arrow keys move between them); the page it opens on first. */
export function HelpDialog({
  open,
  onClose,
  page = 'queue',
}: {
  open: boolean;
  onClose: () => void;
  page?: ShortcutPage;
}) {
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose}>
      <Tabs.Root defaultValue={page} className="help-tabs">
        <Tabs.List aria-label="Shortcuts of" className="tab-list">
          <Tabs.Trigger value="queue" className="tab-trigger">
            Claim queue
          </Tabs.Trigger>
          <Tabs.Trigger value="claim" className="tab-trigger">
            Claim page
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="queue">
          <ShortcutTable caption="Keys of the claim queue" shortcuts={QUEUE_SHORTCUTS} />
        </Tabs.Content>
        <Tabs.Content value="claim">
          <ShortcutTable caption="Keys of the claim page" shortcuts={CLAIM_SHORTCUTS} />
        </Tabs.Content>
      </Tabs.Root>
      <div className="actions">
        <button type="button" className="button button-primary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
