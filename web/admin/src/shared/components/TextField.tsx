import { useId, type InputHTMLAttributes } from 'react';

/**
 * A labelled input with its hint, where it has one, and its problem, when it has one, said under it; the input is
 * described by the problem while there is one, else by the hint.
 */
export function TextField({
  label,
  hint,
  problem,
  ...input
}: { label: string; hint?: string; problem?: string | undefined } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'aria-invalid' | 'aria-describedby'
>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        {...input}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-error` : hint ? `${id}-hint` : undefined}
      />
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {problem ? (
        <p id={`${id}-error`} className="field-error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
