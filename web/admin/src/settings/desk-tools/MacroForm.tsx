import { useId, useState, type FormEvent } from 'react';
import {
  CreateMacroRequest,
  MACRO_PLACEHOLDERS,
  RESOLUTION_REASON_LABELS,
  reasonsFor,
  ResolutionReason,
  ResolutionType,
  macroValuesFor,
  renderMacro,
  type MacroInput,
  type MacroKind,
  type MacroView,
} from '@claims/contracts';
import { Alert } from '@claims/ui/components';
import { RESOLUTION_TYPE_LABELS } from '../../shared/labels.js';
import { Options } from '../../shared/components/Options.js';
import { SubmitOrCancel } from '../../shared/components/SubmitOrCancel.js';
import { ProblemList } from '../../shared/components/ProblemList.js';

/**
 * The claim a macro's preview is filled from: a made-up claim of the chosen store, so the preview
 * needs no real customer's data and looks the same for everyone who edits the macro.
 */
export const SAMPLE_CLAIM = {
  customer: { name: 'Ava Stone', email: 'ava@example.com' },
  claimNumber: '10001',
  statusLabel: 'New',
  claimType: 'Lost',
  orderNumber: '1001',
} as const;

const previewOf = (text: string, storeName: string, agentName: string) =>
  renderMacro(text, macroValuesFor({ ...SAMPLE_CLAIM, storeName, agentName }));

/** What the form's fields hold: every value as typed, the preset's fields kept while the kind is reply. */
interface Draft {
  name: string;
  kind: MacroKind;
  body: string;
  resolutionType: string;
  reason: string;
  amount: string;
  description: string;
}

const draftOf = (macro: MacroView | null): Draft => ({
  name: macro?.name ?? '',
  kind: macro?.kind ?? 'reply',
  body: macro?.body ?? '',
  resolutionType: macro?.resolution?.resolutionType ?? 'REFUND',
  reason: macro?.resolution?.reason ?? '',
  amount: macro?.resolution?.amount === undefined ? '' : String(macro.resolution.amount),
  description: macro?.resolution?.description ?? '',
});

/** The reasons the claim page offers for the preset's decision (a saved macro's own reason stays offered). */
function reasonsOf(type: string, chosen: string): ResolutionReason[] {
  const decision = ResolutionType.safeParse(type);
  return decision.success ? reasonsFor(decision.data, chosen) : [];
}

/** The request for a draft, or the problems to show (in the words of the field they concern). */
function requestOf(draft: Draft): { ok: true; value: MacroInput } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const amount = draft.amount.trim() === '' ? undefined : Number(draft.amount);
  if (amount !== undefined && (!Number.isFinite(amount) || amount < 0))
    problems.push('The amount is a number of 0 or more.');
  const resolution =
    draft.kind === 'resolution'
      ? {
          resolutionType: ResolutionType.parse(draft.resolutionType),
          ...(draft.reason ? { reason: ResolutionReason.parse(draft.reason) } : {}),
          ...(amount !== undefined && Number.isFinite(amount) ? { amount } : {}),
          ...(draft.description ? { description: draft.description } : {}),
        }
      : null;
  const parsed = CreateMacroRequest.safeParse({ name: draft.name, kind: draft.kind, body: draft.body, resolution });
  if (!parsed.success) {
    problems.push(
      ...parsed.error.issues.map((issue) => {
        const field = issue.path[0];
        if (field === 'name')
          return draft.name.trim() ? 'The name is at most 120 characters.' : 'Give the macro a name.';
        if (field === 'body') return `Text: ${issue.message}`;
        if (field === 'resolution') return `Resolution preset: ${issue.message}`;
        return issue.message;
      }),
    );
  }
  return problems.length || !parsed.success ? { ok: false, problems } : { ok: true, value: parsed.data };
}

/** Create or edit a macro: its text with the placeholders it may use and, beside it, the text filled in for a sample claim. */
export function MacroForm({
  macro,
  storeName,
  agentName,
  busy,
  error,
  onSave,
  onCancel,
}: {
  macro: MacroView | null;
  storeName: string;
  agentName: string;
  busy: boolean;
  error: string | null;
  onSave: (input: MacroInput) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(macro));
  const [problems, setProblems] = useState<string[]>([]);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = requestOf(draft);
    if (!result.ok) {
      setProblems(result.problems);
      return;
    }
    setProblems([]);
    onSave(result.value);
  }
  const title = macro ? `Edit macro ${macro.name}` : 'New macro';
  return (
    <form className="card stack" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          type="text"
          maxLength={120}
          value={draft.name}
          onChange={(e) => set('name', e.target.value)}
        />
      </div>
      <fieldset className="field">
        <legend>Kind</legend>
        <label>
          <input
            type="radio"
            name={`${id}-kind`}
            value="reply"
            checked={draft.kind === 'reply'}
            onChange={() => set('kind', 'reply')}
          />{' '}
          Reply (fills the message box)
        </label>
        <label>
          <input
            type="radio"
            name={`${id}-kind`}
            value="resolution"
            checked={draft.kind === 'resolution'}
            onChange={() => set('kind', 'resolution')}
          />{' '}
          Resolution (also presets the resolve form)
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-body`}>Text</label>
        <textarea
          id={`${id}-body`}
          rows={6}
          maxLength={10_000}
          value={draft.body}
          onChange={(e) => set('body', e.target.value)}
          aria-describedby={`${id}-placeholders`}
        />
        <p id={`${id}-placeholders`} className="hint">
          Placeholders: {MACRO_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}
        </p>
      </div>
      {draft.kind === 'resolution' ? (
        <fieldset className="stack">
          <legend>Resolution preset</legend>
          <div className="field">
            <label htmlFor={`${id}-type`}>Resolution</label>
            <select
              id={`${id}-type`}
              value={draft.resolutionType}
              onChange={(e) => {
                const type = e.target.value;
                // A reason chosen for another decision rarely fits this one (a denial's grounds on a reship).
                setDraft((d) => ({
                  ...d,
                  resolutionType: type,
                  reason: reasonsOf(type, '').some((r) => r === d.reason) ? d.reason : '',
                }));
              }}
            >
              <Options values={ResolutionType.options} label={(t) => RESOLUTION_TYPE_LABELS[t]} />
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-reason`}>Reason (optional)</label>
            <select id={`${id}-reason`} value={draft.reason} onChange={(e) => set('reason', e.target.value)}>
              <option value="">No reason</option>
              <Options
                values={reasonsOf(draft.resolutionType, draft.reason)}
                label={(r) => RESOLUTION_REASON_LABELS[r]}
              />
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-amount`}>Amount (optional)</label>
            <input
              id={`${id}-amount`}
              type="text"
              inputMode="decimal"
              value={draft.amount}
              onChange={(e) => set('amount', e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-description`}>Description (optional, placeholders allowed)</label>
            <textarea
              id={`${id}-description`}
              rows={2}
              maxLength={10_000}
              value={draft.description}
              onChange={(e) => set('description', e.target.value)}
            />
          </div>
        </fieldset>
      ) : null}
      <section aria-labelledby={`${id}-preview`} className="macro-preview">
        <h4 id={`${id}-preview`}>Preview for a sample claim</h4>
        <p className="hint">
          Claim #{SAMPLE_CLAIM.claimNumber} of {SAMPLE_CLAIM.customer.name}, order {SAMPLE_CLAIM.orderNumber}, answered
          by you.
        </p>
        <div className="note-body" data-testid="macro-preview">
          {previewOf(draft.body, storeName, agentName) || <span className="muted">(empty)</span>}
        </div>
        {draft.kind === 'resolution' && draft.description ? (
          <p className="note-body" data-testid="macro-preview-description">
            {previewOf(draft.description, storeName, agentName)}
          </p>
        ) : null}
      </section>
      <ProblemList problems={problems} bulleted />
      {error ? <Alert>{error}</Alert> : null}
      <SubmitOrCancel submit={macro ? 'Save macro' : 'Create macro'} busy={busy} onCancel={onCancel} primary={false} />
    </form>
  );
}
