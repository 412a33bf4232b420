import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImageRef, Media } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime, stripHtml } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { api } from '../api.js';
import { PhotoUpload } from '../photoUpload.js';
import type { UploadedMedia } from '../upload.js';

/** The claim's thread with the store and the shopper's message form (below the claim view's first screen). */
export function ClaimMessages({ token }: { token: string }) {
  const client = useQueryClient();
  const messageId = useId();
  const [text, setText] = useState('');
  const [medias, setMedias] = useState<UploadedMedia[]>([]);
  const [error, setError] = useState<string | null>(null);
  const messages = useQuery({ queryKey: ['messages', token], queryFn: () => api.listMessages(token) });
  const send = useMutation({
    mutationFn: () =>
      api.sendMessage(token, {
        messageContent: text.trim(),
        medias: medias.map((m): Media => ({
          caption: formatDateTime(new Date()),
          downloadLink: m.downloadLink,
          fileKey: m.fileName,
          fileType: m.contentType,
          filename: m.originalName,
        })),
      }),
    onSuccess: async () => {
      setText('');
      setMedias([]);
      await client.invalidateQueries({ queryKey: ['messages', token] });
    },
    onError: (e) => setError(errorText(e, 'Your message could not be sent. Please try again.')),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    if (!text.trim() && medias.length === 0) {
      setError('Write a message or add a photo.');
      return;
    }
    send.mutate();
  }

  const images: ImageRef[] = medias.map((m) => ({ url: m.url }));
  return (
    <section className="card" aria-labelledby="messages-title">
      <h2 id="messages-title">Messages</h2>
      {messages.isError ? <Alert>Messages could not be loaded.</Alert> : null}
      <ol className="thread" aria-live="polite">
        {(messages.data ?? []).map((m) => (
          <li key={m.id} className={`message message-${m.senderType}`}>
            <p className="message-meta">
              <strong>{m.senderName}</strong> · <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
            </p>
            {m.messageContent ? <p>{stripHtml(m.messageContent)}</p> : null}
            {m.medias.length > 0 ? (
              <ul className="photos">
                {m.medias.map((media) => (
                  <li key={media.fileKey}>
                    <a href={media.downloadLink}>
                      {media.fileType.startsWith('image/') ? (
                        <img src={media.downloadLink} alt={media.caption ?? media.filename} width={72} height={72} />
                      ) : (
                        media.filename
                      )}
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
        {messages.data?.length === 0 ? <li className="hint">No messages yet.</li> : null}
      </ol>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={messageId}>Your message</label>
          <textarea id={messageId} rows={3} maxLength={10000} value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <PhotoUpload
          label="Add photos"
          proof={{ claimToken: token }}
          value={images}
          onUploaded={(m) => setMedias((all) => [...all, m])}
          onChange={(next) => setMedias((all) => all.filter((m) => next.some((i) => i.url === m.url)))}
        />
        {error ? <Alert>{error}</Alert> : null}
        <button type="submit" className="button button-primary" disabled={send.isPending}>
          {send.isPending ? 'Sending…' : 'Send message'}
        </button>
      </form>
    </section>
  );
}
