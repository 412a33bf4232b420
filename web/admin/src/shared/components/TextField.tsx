import { useId, type InputHTMLAttributes } from 'react';

/** A labelled input whose problem, when it has one, is said under it and named by it (aria-describedby). */
export function TextField({
  label,
  problem,
  ...input
}: { label: string; problem: string | undefined } & Omit<
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
        aria-describedby={problem ? `${id}-error` : undefined}
      />
      {problem ? (
        <p id={`${id}-error`} className="field-error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
