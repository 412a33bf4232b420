import { useId, useState, type KeyboardEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RuleMode, type RuleList as RuleListView, type RuleView } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { ruleSummary } from '@claims/format/rule-summary';
import { Badge, type BadgeTone } from '../../shared/components/ui.js';
import { automationApi } from '../automationApi.js';
import { ruleQueries } from '../queries.js';
import { RuleHistory } from './RuleHistory.js';
import { MODE_LABELS } from './ruleDraft.js';
import { Options } from '../../shared/components/Options.js';

const MODE_TONES: Record<RuleMode, BadgeTone> = { live: 'success', shadow: 'info', off: 'neutral' };

/** `ids` with the one at `from` moved to `to`. */
function moved(ids: readonly string[], from: number, to: number): string[] {
  const next = [...ids];
  const [id] = next.splice(from, 1);
  next.splice(to, 0, id!);
  return next;
}

/** A saved rule as the API takes it back, with another mode: its next version. */
const withMode = (rule: RuleView, mode: RuleMode) => ({
  name: rule.name,
  mode,
  conditions: rule.conditions,
  action: rule.action,
  dailyLimit: rule.dailyLimit,
});

/**
 * The store's rules in the order they are tried. Those who may update reorder them by dragging a rule, or from the
 * keyboard with the arrow keys on a rule's handle (or its move buttons), each move announced; and switch a rule's
 * mode, which saves its next version.
 */
export function RuleList({
  storeId,
  list,
  mayUpdate,
  announce,
  onEdit,
}: {
  storeId: string;
  list: RuleListView;
  mayUpdate: boolean;
  announce: (message: string) => void;
  onEdit: (rule: RuleView) => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const listKey = ruleQueries.list(storeId).queryKey;
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  // Moves are sent one after another (a scope runs its mutations in order), so the store's order ends as the last
  // move left it; only the last answer replaces the list, an earlier one would undo the moves after it for a moment.
  const orderKey = ['rules', storeId, 'order'];
  const reorder = useMutation({
    mutationKey: orderKey,
    scope: { id: `rules-order-${storeId}` },
    mutationFn: (ruleIds: string[]) => automationApi.reorder(storeId, ruleIds),
    onSuccess: (saved) => {
      if (client.isMutating({ mutationKey: orderKey }) <= 1) client.setQueryData(listKey, saved);
    },
    onError: async (error) => {
      announce(`The new order was not saved: ${errorText(error)}`);
      await client.invalidateQueries({ queryKey: listKey });
    },
  });
  const switchMode = useMutation({
    mutationFn: ({ rule, mode }: { rule: RuleView; mode: RuleMode }) =>
      automationApi.revise(storeId, rule.id, withMode(rule, mode)),
    onSuccess: async (saved, { rule, mode }) => {
      await client.invalidateQueries({ queryKey: ruleQueries.all(storeId) });
      announce(`“${rule.name}” is now ${MODE_LABELS[mode].toLowerCase()} (version ${saved.version}).`);
    },
    onError: (error, { rule }) => announce(`The mode of “${rule.name}” was not changed: ${errorText(error)}`),
  });
  const rules = list.rules;
  function move(from: number, to: number) {
    if (to < 0 || to >= rules.length || from === to) return;
    const rule = rules[from]!;
    const ids = moved(
      rules.map((r) => r.id),
      from,
      to,
    );
    // The list moves at once; a read still on its way would bring the old order back.
    void client.cancelQueries({ queryKey: listKey });
    client.setQueryData(listKey, (old) =>
      old ? { ...old, rules: ids.flatMap((rid) => old.rules.filter((r) => r.id === rid)) } : old,
    );
    reorder.mutate(ids);
    announce(`“${rule.name}” moved to position ${to + 1} of ${rules.length}.`);
  }
  function onHandleKey(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const to =
      event.key === 'ArrowUp'
        ? index - 1
        : event.key === 'ArrowDown'
          ? index + 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? rules.length - 1
              : null;
    if (to === null) return;
    event.preventDefault();
    move(index, to);
  }
  if (rules.length === 0)
    return (
      <p className="muted empty-rules">
        No rules yet. A rule decides claims as an agent would; start one in shadow mode to see what it would do before
        it decides anything.
      </p>
    );
  return (
    <>
      {mayUpdate ? (
        <p id={`${id}-how`} className="hint">
          Drag a rule by its handle to reorder, or focus the handle and press the up or down arrow key.
        </p>
      ) : null}
      <ol className="rule-list plain">
        {rules.map((rule, index) => (
          <li
            key={rule.id}
            className={`card rule-row${dragging === rule.id ? ' dragging' : ''}${over === index && dragging !== rule.id ? ' drop-target' : ''}`}
            aria-labelledby={`${id}-${rule.id}`}
            draggable={mayUpdate}
            onDragStart={(e) => {
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', rule.id);
              setDragging(rule.id);
            }}
            onDragOver={(e) => {
              if (!dragging) return;
              e.preventDefault();
              setOver(index);
            }}
            onDrop={(e) => {
              e.preventDefault();
              const from = rules.findIndex((r) => r.id === dragging);
              if (from >= 0) move(from, index);
              setDragging(null);
              setOver(null);
            }}
            onDragEnd={() => {
              setDragging(null);
              setOver(null);
            }}
          >
            <div className="rule-row-head">
              {mayUpdate ? (
                <button
                  type="button"
                  className="drag-handle"
                  aria-label={`Reorder “${rule.name}”, position ${index + 1} of ${rules.length}`}
                  aria-describedby={`${id}-how`}
                  onKeyDown={(e) => onHandleKey(e, index)}
                >
                  <span aria-hidden="true">⠿</span>
                </button>
              ) : null}
              <h3 id={`${id}-${rule.id}`}>
                {index + 1}. {rule.name}
              </h3>
              <Badge tone={MODE_TONES[rule.mode]}>{MODE_LABELS[rule.mode]}</Badge>
              <span className="hint">Version {rule.version}</span>
            </div>
            <p className="rule-summary">{ruleSummary(rule, rule.currency)}</p>
            <div className="actions">
              {mayUpdate ? (
                <>
                  <div className="field field-inline">
                    <label htmlFor={`${id}-${rule.id}-mode`}>
                      Mode<span className="visually-hidden"> of “{rule.name}”</span>
                    </label>
                    <select
                      id={`${id}-${rule.id}-mode`}
                      value={rule.mode}
                      disabled={switchMode.isPending}
                      onChange={(e) => switchMode.mutate({ rule, mode: RuleMode.parse(e.target.value) })}
                    >
                      <Options values={RuleMode.options} label={(m) => MODE_LABELS[m]} />
                    </select>
                  </div>
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                  >
                    Move up<span className="visually-hidden"> “{rule.name}”</span>
                  </button>
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={index === rules.length - 1}
                    onClick={() => move(index, index + 1)}
                  >
                    Move down<span className="visually-hidden"> “{rule.name}”</span>
                  </button>
                  <button type="button" className="button button-secondary" onClick={() => onEdit(rule)}>
                    Edit<span className="visually-hidden"> “{rule.name}”</span>
                  </button>
                </>
              ) : null}
              <button
                type="button"
                className="button button-link"
                aria-expanded={open === rule.id}
                onClick={() => setOpen(open === rule.id ? null : rule.id)}
              >
                History<span className="visually-hidden"> of “{rule.name}”</span>
              </button>
            </div>
            {open === rule.id ? <RuleHistory storeId={storeId} rule={rule} /> : null}
          </li>
        ))}
      </ol>
    </>
  );
}
