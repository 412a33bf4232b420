import { useId, useState, type FormEvent } from 'react';
import { SettingsChangeInput, type SettingsChange } from '@claims/contracts';

interface Row {
  key: string;
  value: string;
}

/** The store's metadata as key/value rows: add, change, remove, then save the whole set. */
export function MetadataForm({
  entries,
  busy,
  onSave,
}: {
  entries: Record<string, string>;
  busy: boolean;
  onSave: (change: SettingsChange) => void;
}) {
  const id = useId();
  const [rows, setRows] = useState<Row[]>(() => Object.entries(entries).map(([key, value]) => ({ key, value })));
  const [problem, setProblem] = useState<string | null>(null);
  const edit = (index: number, next: Partial<Row>) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...next } : row)));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const kept = rows.filter((row) => row.key.trim() !== '' || row.value !== '');
    const keys = kept.map((row) => row.key.trim());
    if (new Set(keys).size !== keys.length) {
      setProblem('Each key may appear once.');
      return;
    }
    const parsed = SettingsChangeInput.safeParse({
      group: 'metadata',
      value: { entries: Object.fromEntries(kept.map((row) => [row.key.trim(), row.value])) },
    });
    if (!parsed.success) {
      setProblem(
        parsed.error.issues
          .map((issue) => `${issue.path.slice(2).map(String).join('.') || 'Metadata'}: ${issue.message}`)
          .join(' '),
      );
      return;
    }
    setProblem(null);
    onSave(parsed.data);
  }

  return (
    <form className="stack settings-form" onSubmit={onSubmit} noValidate>
      {rows.length === 0 ? <p className="muted">No metadata yet.</p> : null}
      {rows.map((row, index) => (
        <div className="inline-form" key={index}>
          <div className="field">
            <label htmlFor={`${id}-key-${index}`}>Key {index + 1}</label>
            <input
              id={`${id}-key-${index}`}
              type="text"
              value={row.key}
              maxLength={64}
              autoComplete="off"
              onChange={(e) => edit(index, { key: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-value-${index}`}>Value {index + 1}</label>
            <input
              id={`${id}-value-${index}`}
              type="text"
              value={row.value}
              maxLength={1_000}
              autoComplete="off"
              onChange={(e) => edit(index, { value: e.target.value })}
            />
          </div>
          <button
            type="button"
            className="button button-link"
            onClick={() => setRows(rows.filter((_, i) => i !== index))}
          >
            Remove<span className="visually-hidden"> key {index + 1}</span>
          </button>
        </div>
      ))}
      {problem ? (
        <p role="alert" className="alert alert-danger">
          {problem}
        </p>
      ) : null}
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => setRows([...rows, { key: '', value: '' }])}
          disabled={rows.length >= 100}
        >
          Add a key
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          Save<span className="visually-hidden"> metadata settings</span>
        </button>
      </div>
    </form>
  );
}
