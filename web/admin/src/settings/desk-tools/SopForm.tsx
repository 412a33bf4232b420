import { useId, useState, type FormEvent } from 'react';
import { SopInput, type SopView } from '@claims/contracts';
import { Alert } from '@claims/ui/components';
import { SubmitOrCancel } from '../../shared/components/SubmitOrCancel.js';

/** Write or rewrite an SOP: a title and its procedure as plain text. */
export function SopForm({
  sop,
  busy,
  error,
  onSave,
  onCancel,
}: {
  sop: SopView | null;
  busy: boolean;
  error: string | null;
  onSave: (input: SopInput) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [title, setTitle] = useState(sop?.title ?? '');
  const [body, setBody] = useState(sop?.body ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = SopInput.safeParse({ title, body });
    if (!parsed.success) {
      setProblem(
        parsed.error.issues[0]?.path[0] === 'title'
          ? title.trim()
            ? 'The title is at most 200 characters.'
            : 'Give the SOP a title.'
          : 'The procedure is at most 50,000 characters.',
      );
      return;
    }
    setProblem(null);
    onSave(parsed.data);
  }
  return (
    <form className="card stack" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{sop ? `Edit SOP ${sop.title}` : 'New SOP'}</h3>
      <div className="field">
        <label htmlFor={`${id}-name`}>Title</label>
        <input id={`${id}-name`} type="text" maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-body`}>Procedure</label>
        <textarea
          id={`${id}-body`}
          rows={8}
          maxLength={50_000}
          value={body}
          onChange={(e) => setBody(e.target.value)}
        />
      </div>
      {problem ? <Alert>{problem}</Alert> : null}
      {error ? <Alert>{error}</Alert> : null}
      <SubmitOrCancel submit={sop ? 'Save SOP' : 'Create SOP'} busy={busy} onCancel={onCancel} primary={false} />
    </form>
  );
}
