import { useId } from 'react';
import { RuleField, type RuleOp } from '@claims/contracts';
import {
  FIELD_LABELS,
  OP_LABELS,
  conditionFor,
  isNumeric,
  opsOf,
  valueLabel,
  valuesOf,
  type ConditionDraft,
} from './ruleDraft.js';
import { Options } from '../../shared/components/Options.js';

/** A problem shown under its field, and named by it (aria-describedby) so a screen reader reads it with the field. */
export function FieldProblem({ id, problem }: { id: string; problem: string | undefined }) {
  return problem ? (
    <p id={id} className="field-error">
      {problem}
    </p>
  ) : null;
}

/** One condition of the builder: the field tested, the comparison, the value (or values). */
export function ConditionFields({
  index,
  condition,
  currency,
  problem,
  onChange,
  onRemove,
}: {
  index: number;
  condition: ConditionDraft;
  currency: string;
  problem: string | undefined;
  onChange: (next: ConditionDraft) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const problemId = `${id}-problem`;
  const described = problem ? problemId : undefined;
  const { field, op } = condition;
  const valueName = field === 'claimValue' ? `Value (${currency})` : 'Value';
  return (
    <fieldset className="card condition">
      <legend>Condition {index + 1}</legend>
      <div className="condition-fields">
        <div className="field">
          <label htmlFor={`${id}-field`}>Field</label>
          <select
            id={`${id}-field`}
            value={field}
            onChange={(e) => onChange(conditionFor(condition.key, RuleField.parse(e.target.value)))}
          >
            <Options values={RuleField.options} label={(f) => FIELD_LABELS[f]} />
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-op`}>Comparison</label>
          <select
            id={`${id}-op`}
            value={op}
            onChange={(e) => {
              const next = e.target.value as RuleOp;
              // Going from one value to a list keeps the value picked, ticked.
              const values = next === 'in' && condition.values.length === 0 ? [condition.value] : condition.values;
              onChange({ ...condition, op: next, values });
            }}
          >
            <Options values={opsOf(field)} label={(o) => OP_LABELS[o]} />
          </select>
        </div>
        {op === 'in' ? (
          <fieldset className="field" aria-describedby={described}>
            <legend>Values</legend>
            <div className="condition-values">
              {valuesOf(field).map((v) => (
                <label key={v} className="checkbox">
                  <input
                    type="checkbox"
                    checked={condition.values.includes(v)}
                    onChange={(e) =>
                      onChange({
                        ...condition,
                        values: e.target.checked
                          ? [...condition.values, v]
                          : condition.values.filter((other) => other !== v),
                      })
                    }
                  />
                  {valueLabel(field, v)}
                </label>
              ))}
            </div>
          </fieldset>
        ) : isNumeric(field) ? (
          <div className="field">
            <label htmlFor={`${id}-value`}>{valueName}</label>
            <input
              id={`${id}-value`}
              type="number"
              min={0}
              step={field === 'claimValue' ? 'any' : 1}
              inputMode={field === 'claimValue' ? 'decimal' : 'numeric'}
              className="small-input"
              value={condition.value}
              aria-invalid={problem ? true : undefined}
              aria-describedby={described}
              onChange={(e) => onChange({ ...condition, value: e.target.value })}
            />
          </div>
        ) : (
          <div className="field">
            <label htmlFor={`${id}-value`}>{valueName}</label>
            <select
              id={`${id}-value`}
              value={condition.value}
              aria-describedby={described}
              onChange={(e) => onChange({ ...condition, value: e.target.value })}
            >
              <Options values={valuesOf(field)} label={(v) => valueLabel(field, v)} />
            </select>
          </div>
        )}
        <button type="button" className="button button-secondary" onClick={onRemove}>
          Remove condition {index + 1}
        </button>
      </div>
      <FieldProblem id={problemId} problem={problem} />
    </fieldset>
  );
}
