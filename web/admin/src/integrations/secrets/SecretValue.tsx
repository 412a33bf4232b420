import { useId, useState } from 'react';

/**
 * A secret shown once: read-only, selectable, with a copy button that says whether copying worked
 * (the clipboard may be refused; the text can still be selected by hand).
 */
export function SecretValue({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState<string | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copying was not allowed here: select the text and copy it by hand.');
    }
  }
  return (
    <div className="stack">
      <div className="field">
        <label htmlFor={`${id}-value`}>{label}</label>
        <input
          id={`${id}-value`}
          type="text"
          className="secret"
          readOnly
          value={value}
          onFocus={(e) => e.target.select()}
          aria-describedby={`${id}-hint`}
        />
        <p id={`${id}-hint`} className="hint">
          Shown only this once. Store it somewhere safe before closing.
        </p>
      </div>
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={() => void copy()}>
          Copy<span className="visually-hidden"> {label}</span>
        </button>
        <p role="status" className="muted copy-status">
          {copied}
        </p>
      </div>
    </div>
  );
}
