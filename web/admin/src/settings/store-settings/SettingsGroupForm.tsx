import { useId, useState, type FormEvent } from 'react';
import {
  SETTINGS_GROUP_LABELS,
  SettingsChangeInput,
  type EditableSettingsGroup,
  type SettingsChange,
} from '@claims/contracts';
import { SETTINGS_FIELDS, valueAt, withValueAt, type SettingsField } from './settingsFields.js';

type FormGroup = Exclude<EditableSettingsGroup, 'metadata'>;
type Problems = Record<string, string>;

const pathOf = (field: SettingsField) => (field.kind === 'switch' ? field.paths[0]! : field.path);
const typed = (field: SettingsField) =>
  field.kind === 'number' || field.kind === 'url' || field.kind === 'text' || field.kind === 'line';

/** What the text inputs start with: the stored value as typed (an unset address is empty). */
function textsOf(group: FormGroup, value: unknown): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const field of SETTINGS_FIELDS[group]) {
    if (!typed(field)) continue;
    const current = valueAt(value, pathOf(field));
    texts[pathOf(field)] = current === null || current === undefined ? '' : String(current);
  }
  return texts;
}

/** The typed texts put back into the value: numbers as numbers, an empty address as none. */
function withTexts(group: FormGroup, value: unknown, texts: Record<string, string>): unknown {
  let next = value;
  for (const field of SETTINGS_FIELDS[group]) {
    const text = texts[pathOf(field)] ?? '';
    if (field.kind === 'number') {
      const empty = field.optional ? undefined : Number.NaN;
      next = withValueAt(next, field.path, text.trim() === '' ? empty : Number(text));
    }
    if (field.kind === 'url' || field.kind === 'line')
      next = withValueAt(next, field.path, text.trim() === '' ? null : text.trim());
    if (field.kind === 'text') next = withValueAt(next, field.path, text);
  }
  return next;
}

/**
 * One group's form, from its field list: checked by the contract's rules before it is sent, each
 * problem shown under its field (a field-less one above the button).
 */
export function SettingsGroupForm({
  group,
  value,
  busy,
  onSave,
}: {
  group: FormGroup;
  value: unknown;
  busy: boolean;
  onSave: (change: SettingsChange) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<unknown>(value);
  const [texts, setTexts] = useState(() => textsOf(group, value));
  const [problems, setProblems] = useState<Problems>({});
  const fields = SETTINGS_FIELDS[group];

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = SettingsChangeInput.safeParse({ group, value: withTexts(group, draft, texts) });
    if (!parsed.success) {
      const found: Problems = {};
      for (const issue of parsed.error.issues) {
        const path = issue.path.slice(1).map(String).join('.');
        const known = fields.some((f) => (f.kind === 'switch' ? f.paths.includes(path) : f.path === path));
        found[known ? path : ''] ??= issue.message;
      }
      setProblems(found);
      return;
    }
    setProblems({});
    onSave(parsed.data);
  }

  const errorId = (path: string) => `${id}-${path}-error`;
  const problemOf = (path: string) =>
    problems[path] ? (
      <p id={errorId(path)} className="field-error">
        {problems[path]}
      </p>
    ) : null;

  return (
    <form className="stack settings-form" onSubmit={onSubmit} noValidate>
      {fields.map((field) => {
        const path = pathOf(field);
        const inputId = `${id}-${path}`;
        const hintId = `${inputId}-hint`;
        const described =
          [field.kind !== 'select' && field.hint ? hintId : null, problems[path] ? errorId(path) : null]
            .filter(Boolean)
            .join(' ') || undefined;
        const hint =
          field.kind !== 'select' && field.hint ? (
            <p id={hintId} className="hint">
              {field.hint}
            </p>
          ) : null;
        if (field.kind === 'switch') {
          return (
            <div className="field" key={path}>
              <label className="checkbox" htmlFor={inputId}>
                <input
                  id={inputId}
                  type="checkbox"
                  checked={valueAt(draft, path) === true}
                  aria-describedby={described}
                  onChange={(e) =>
                    setDraft(field.paths.reduce<unknown>((next, p) => withValueAt(next, p, e.target.checked), draft))
                  }
                />
                {field.label}
              </label>
              {hint}
              {problemOf(path)}
            </div>
          );
        }
        if (field.kind === 'select') {
          return (
            <div className="field" key={path}>
              <label htmlFor={inputId}>{field.label}</label>
              <select
                id={inputId}
                value={String(valueAt(draft, path))}
                aria-describedby={described}
                onChange={(e) => setDraft(withValueAt(draft, path, e.target.value))}
              >
                {field.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
              {problemOf(path)}
            </div>
          );
        }
        return (
          <div className="field" key={path}>
            <label htmlFor={inputId}>{field.label}</label>
            {field.kind === 'text' ? (
              <textarea
                id={inputId}
                rows={3}
                maxLength={2_000}
                value={texts[path] ?? ''}
                aria-describedby={described}
                aria-invalid={Boolean(problems[path])}
                onChange={(e) => setTexts({ ...texts, [path]: e.target.value })}
              />
            ) : field.kind === 'line' ? (
              <input
                id={inputId}
                type={field.inputType}
                value={texts[path] ?? ''}
                aria-describedby={described}
                aria-invalid={Boolean(problems[path])}
                autoComplete="off"
                onChange={(e) => setTexts({ ...texts, [path]: e.target.value })}
              />
            ) : (
              <input
                id={inputId}
                type={field.kind === 'number' ? 'number' : 'url'}
                value={texts[path] ?? ''}
                aria-describedby={described}
                aria-invalid={Boolean(problems[path])}
                {...(field.kind === 'number'
                  ? { min: field.min, max: field.max, step: field.step, inputMode: 'decimal' as const }
                  : { inputMode: 'url' as const, autoComplete: 'url' })}
                onChange={(e) => setTexts({ ...texts, [path]: e.target.value })}
              />
            )}
            {hint}
            {problemOf(path)}
          </div>
        );
      })}
      {problems[''] ? (
        <p role="alert" className="alert alert-danger">
          {problems['']}
        </p>
      ) : null}
      {Object.keys(problems).length > 0 ? (
        <p role="alert" className="visually-hidden">
          Some values need fixing before saving.
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          Save<span className="visually-hidden"> {SETTINGS_GROUP_LABELS[group].toLowerCase()} settings</span>
        </button>
      </div>
    </form>
  );
}
