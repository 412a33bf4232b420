import { useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ResolutionReason, RuleMode, type RuleInput, type RuleView } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { isHttpError } from '../../shared/api.js';
import { ruleSummary } from '@claims/format/rule-summary';
import { Alert } from '@claims/ui/components';
import { reasonLabel } from '../../shared/labels.js';
import { automationApi } from '../automationApi.js';
import { ruleQueries } from '../queries.js';
import { BacktestPanel } from './BacktestPanel.js';
import { ConditionFields, FieldProblem } from './ConditionFields.js';
import {
  MODE_HINTS,
  MODE_LABELS,
  checkDraft,
  conditionFor,
  draftOf,
  emptyDraft,
  previewRuleOf,
  problemsOf,
  type ApproveAs,
  type RuleDraft,
} from './ruleDraft.js';
import { Options } from '../../shared/components/Options.js';
import { SubmitOrCancel } from '../../shared/components/SubmitOrCancel.js';

const APPROVE_AS: Record<ApproveAs, string> = {
  '': 'What the shopper asked for',
  REFUND: 'Refund',
  RESHIP: 'Reship',
  STORE_CREDIT: 'Store credit',
};

/**
 * The builder: a new rule, or the next version of `editing`. Conditions (all must hold), the action, an optional daily
 * limit, a live plain-language preview, a backtest of the draft, and save. Problems show under their fields, the
 * API's refusals too.
 */
export function RuleBuilder({
  storeId,
  currency,
  editing,
  onSaved,
  onCancel,
}: {
  storeId: string;
  currency: string;
  editing: RuleView | null;
  onSaved: (message: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const [draft, setDraft] = useState<RuleDraft>(() => (editing ? draftOf(editing) : emptyDraft()));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const nextKey = useRef(draft.conditions.length);
  const save = useMutation({
    mutationFn: (rule: RuleInput) =>
      editing ? automationApi.revise(storeId, editing.id, rule) : automationApi.create(storeId, rule),
    onSuccess: async (saved, rule) => {
      await client.invalidateQueries({ queryKey: ruleQueries.all(storeId) });
      onSaved(`“${rule.name}” saved as version ${saved.version}.`);
    },
    onError: (error) => {
      if (isHttpError(error)) setProblems(problemsOf(error.details));
    },
  });
  const change = (next: Partial<RuleDraft>) => setDraft((current) => ({ ...current, ...next }));
  const check = (): RuleInput | null => {
    const checked = checkDraft(draft);
    setProblems(checked.ok ? {} : checked.problems);
    return checked.ok ? checked.input : null;
  };
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const rule = check();
    if (rule) save.mutate(rule);
  }
  const problemId = (path: string) => (problems[path] ? `${id}-${path.replace(/\./g, '-')}` : undefined);
  const problemOf = (path: string) => (
    <FieldProblem id={`${id}-${path.replace(/\./g, '-')}`} problem={problems[path]} />
  );
  const preview = ruleSummary(previewRuleOf(draft), currency);
  const otherProblems = Object.entries(problems).filter(
    ([path]) =>
      !['name', 'action.reason', 'action.label', 'dailyLimit.count', 'dailyLimit.amount'].includes(path) &&
      !/^conditions\.\d+\.value$/.test(path),
  );
  const title = editing ? `Edit “${editing.name}”` : 'New rule';
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {editing ? (
        <p className="hint">Saving makes version {editing.version + 1}; the earlier ones stay in its history.</p>
      ) : null}
      <form className="stack" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
        <div className="inline-form">
          <div className="field rule-name">
            <label htmlFor={`${id}-name`}>Rule name</label>
            <input
              id={`${id}-name`}
              type="text"
              maxLength={120}
              value={draft.name}
              aria-invalid={problems.name ? true : undefined}
              aria-describedby={problemId('name')}
              onChange={(e) => change({ name: e.target.value })}
            />
            {problemOf('name')}
          </div>
          <div className="field">
            <label htmlFor={`${id}-mode`}>Mode</label>
            <select
              id={`${id}-mode`}
              value={draft.mode}
              onChange={(e) => change({ mode: RuleMode.parse(e.target.value) })}
            >
              {RuleMode.options.map((m) => (
                <option key={m} value={m}>
                  {MODE_LABELS[m]}: {MODE_HINTS[m]}
                </option>
              ))}
            </select>
          </div>
        </div>

        <fieldset className="stack">
          <legend>When a claim meets every condition</legend>
          {draft.conditions.length === 0 ? <p className="muted">No condition: the rule takes every claim.</p> : null}
          {draft.conditions.map((condition, index) => (
            <ConditionFields
              key={condition.key}
              index={index}
              condition={condition}
              currency={currency}
              problem={problems[`conditions.${index}.value`]}
              onChange={(next) =>
                change({ conditions: draft.conditions.map((c) => (c.key === condition.key ? next : c)) })
              }
              onRemove={() => change({ conditions: draft.conditions.filter((c) => c.key !== condition.key) })}
            />
          ))}
          <div className="actions">
            <button
              type="button"
              className="button button-secondary"
              disabled={draft.conditions.length >= 20}
              onClick={() =>
                change({ conditions: [...draft.conditions, conditionFor(nextKey.current++, 'claimValue')] })
              }
            >
              Add condition
            </button>
          </div>
        </fieldset>

        <fieldset className="stack">
          <legend>Then</legend>
          <div className="choices" role="radiogroup" aria-label="Action">
            {(
              [
                ['approve', 'Approve'],
                ['deny', 'Deny'],
                ['hold', 'Hold for review'],
              ] as const
            ).map(([value, text]) => (
              <label key={value} className="checkbox">
                <input
                  type="radio"
                  name={`${id}-action`}
                  value={value}
                  checked={draft.action === value}
                  onChange={() => change({ action: value })}
                />
                {text}
              </label>
            ))}
          </div>
          {draft.action === 'approve' ? (
            <div className="field">
              <label htmlFor={`${id}-approve-as`}>Resolution</label>
              <select
                id={`${id}-approve-as`}
                value={draft.approveAs}
                onChange={(e) => change({ approveAs: e.target.value as ApproveAs })}
              >
                {Object.entries(APPROVE_AS).map(([value, text]) => (
                  <option key={value} value={value}>
                    {text}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {draft.action === 'deny' ? (
            <div className="field">
              <label htmlFor={`${id}-reason`}>Reason for the denial</label>
              <select
                id={`${id}-reason`}
                value={draft.reason}
                aria-invalid={problems['action.reason'] ? true : undefined}
                aria-describedby={problemId('action.reason')}
                onChange={(e) => change({ reason: e.target.value as RuleDraft['reason'] })}
              >
                <option value="">Choose a reason</option>
                <Options values={ResolutionReason.options} label={(r) => reasonLabel(r)} />
              </select>
              {problemOf('action.reason')}
            </div>
          ) : null}
          {draft.action === 'hold' ? (
            <div className="field">
              <label htmlFor={`${id}-label`}>Label on held claims</label>
              <input
                id={`${id}-label`}
                type="text"
                maxLength={60}
                placeholder="Held by rule"
                value={draft.label}
                aria-describedby={problemId('action.label')}
                onChange={(e) => change({ label: e.target.value })}
              />
              {problemOf('action.label')}
            </div>
          ) : null}
        </fieldset>

        <fieldset className="stack">
          <legend>Daily limit (optional)</legend>
          <p className="hint">
            Past either limit on a day, the rule leaves further claims to the next rule or a person.
          </p>
          <div className="inline-form">
            <div className="field">
              <label htmlFor={`${id}-count`}>Claims a day</label>
              <input
                id={`${id}-count`}
                type="number"
                min={1}
                step={1}
                inputMode="numeric"
                className="small-input"
                value={draft.limitCount}
                aria-invalid={problems['dailyLimit.count'] ? true : undefined}
                aria-describedby={problemId('dailyLimit.count')}
                onChange={(e) => change({ limitCount: e.target.value })}
              />
              {problemOf('dailyLimit.count')}
            </div>
            <div className="field">
              <label htmlFor={`${id}-amount`}>Money a day ({currency})</label>
              <input
                id={`${id}-amount`}
                type="number"
                min={0}
                step="any"
                inputMode="decimal"
                className="small-input"
                value={draft.limitAmount}
                aria-invalid={problems['dailyLimit.amount'] ? true : undefined}
                aria-describedby={problemId('dailyLimit.amount')}
                onChange={(e) => change({ limitAmount: e.target.value })}
              />
              {problemOf('dailyLimit.amount')}
            </div>
          </div>
        </fieldset>

        <section className="rule-preview" aria-labelledby={`${id}-preview`}>
          <h3 id={`${id}-preview`}>Preview</h3>
          <p aria-live="polite">{preview}</p>
        </section>

        <BacktestPanel storeId={storeId} currency={currency} check={check} signature={JSON.stringify(draft)} />

        {otherProblems.length > 0 ? (
          <Alert>
            <ul>
              {otherProblems.map(([path, message]) => (
                <li key={path}>{message}</li>
              ))}
            </ul>
          </Alert>
        ) : null}
        {save.isError && !(isHttpError(save.error) && save.error.details.length > 0) ? (
          <Alert>The rule was not saved: {errorText(save.error)}</Alert>
        ) : null}
        <SubmitOrCancel
          submit={editing ? `Save as version ${editing.version + 1}` : 'Save rule'}
          busy={save.isPending}
          onCancel={onCancel}
        />
      </form>
    </section>
  );
}
