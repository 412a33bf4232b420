import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { AdminClaimDetail } from '@claims/contracts';
import { errorText, formatDateTime, stripHtml } from '@claims/ui';
import { Alert } from '@claims/ui/components';
import { api } from '../api.js';
import { useClaimUpdated } from './Actions.js';

/** The conversation with the shopper; sending needs message:create on the claim's store. */
export function Messages({ claim, canSend, initialText = '' }: { claim: AdminClaimDetail; canSend: boolean; initialText?: string }) {
  const id = useId();
  const updated = useClaimUpdated(claim.id);
  const [text, setText] = useState(initialText);
  const [problem, setProblem] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: () => api.sendMessage(claim.id, { messageContent: text.trim() }),
    onSuccess: async () => {
      setText('');
      await updated();
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!text.trim()) {
      setProblem('Write a message first.');
      return;
    }
    setProblem(null);
    send.mutate();
  }
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Messages</h2>
      {claim.messages.length === 0 ? <p className="muted">No messages yet.</p> : (
        <ol className="thread">
          {claim.messages.map((m) => (
            <li key={m.id} className={`message message-${m.senderType}`}>
              <p className="message-meta"><strong>{m.senderName}</strong> ({m.senderType}) · <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time></p>
              {m.messageContent ? <p>{stripHtml(m.messageContent)}</p> : null}
              {m.medias.length > 0 ? <p className="muted">{m.medias.length} attachment(s)</p> : null}
            </li>
          ))}
        </ol>
      )}
      {canSend ? (
        <form className="stack" onSubmit={onSubmit} noValidate>
          <div className="field">
            <label htmlFor={`${id}-text`}>Message to the customer</label>
            <textarea id={`${id}-text`} rows={3} maxLength={10_000} value={text} onChange={(e) => setText(e.target.value)} />
          </div>
          {problem ? <Alert>{problem}</Alert> : null}
          {send.isError ? <Alert>{errorText(send.error)}</Alert> : null}
          {send.isSuccess ? <Alert tone="success">Message sent.</Alert> : null}
          <div className="actions"><button type="submit" className="button button-secondary" disabled={send.isPending}>Send message</button></div>
        </form>
      ) : null}
    </section>
  );
}
