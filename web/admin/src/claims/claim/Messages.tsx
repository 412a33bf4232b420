import { useId, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { AdminClaimDetail, Media, Message } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime, stripHtml } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { Lightbox } from '@claims/ui/lightbox';
import { api } from '../../shared/api.js';
import { useClaimUpdated } from './Actions.js';
import { ACCEPT_ATTRIBUTE, MAX_ATTACHMENTS, attachmentProblem, isImage, uploadAttachment } from './attachments.js';
import { MessageText } from './MessageText.js';
import { FoldingCard } from '../../shared/components/FoldingCard.js';

const attachmentName = (message: Message, media: Media, index: number) =>
  `Attachment ${index + 1} from ${message.senderName}: ${media.filename}`;

/** A message's attachments: pictures as thumbnails that open in the lightbox, videos as links. */
function Attachments({ message, onOpen }: { message: Message; onOpen: (index: number) => void }) {
  const pictures = message.medias.filter(isImage);
  return (
    <ul className="photos" aria-label={`Attachments from ${message.senderName}`}>
      {message.medias.map((media, index) => (
        <li key={media.fileKey}>
          {isImage(media) ? (
            <button type="button" className="photo-button" onClick={() => onOpen(pictures.indexOf(media))}>
              <img src={media.downloadLink} alt={attachmentName(message, media, index)} width={72} height={72} />
            </button>
          ) : (
            <a href={media.downloadLink} target="_blank" rel="noopener noreferrer">
              {media.filename}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The conversation with the shopper; sending (with attachments) needs message:create on the claim's store. */
export function Messages({
  claim,
  canSend,
  initialText = '',
}: {
  claim: AdminClaimDetail;
  canSend: boolean;
  initialText?: string;
}) {
  const id = useId();
  const updated = useClaimUpdated(claim.id);
  const fileInput = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(initialText);
  const [files, setFiles] = useState<File[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [viewing, setViewing] = useState<{ messageId: string; index: number } | null>(null);
  const send = useMutation({
    mutationFn: async () => {
      const medias = await Promise.all(files.map((file) => uploadAttachment(claim.id, file)));
      return api.sendMessage(claim.id, { messageContent: text.trim(), medias });
    },
    onSuccess: async () => {
      setText('');
      setFiles([]);
      if (fileInput.current) fileInput.current.value = '';
      await updated();
    },
  });
  function onPick(list: FileList | null) {
    const picked = [...(list ?? [])];
    const refused = picked.map(attachmentProblem).filter((p): p is string => p !== null);
    const next = [...files, ...picked.filter((f) => attachmentProblem(f) === null)];
    setProblem(
      refused.length
        ? refused.join(' ')
        : next.length > MAX_ATTACHMENTS
          ? `A message takes at most ${MAX_ATTACHMENTS} files.`
          : null,
    );
    setFiles(next.slice(0, MAX_ATTACHMENTS));
    if (fileInput.current) fileInput.current.value = '';
  }
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!text.trim() && files.length === 0) {
      setProblem('Write a message or attach a file first.');
      return;
    }
    setProblem(null);
    send.mutate();
  }
  const viewed = claim.messages.find((m) => m.id === viewing?.messageId);
  return (
    <FoldingCard title="Messages" titleId={`${id}-title`} storageKey="claim:messages" defaultOpen>
      {claim.messages.length === 0 ? (
        <p className="muted">No messages yet.</p>
      ) : (
        <ol className="thread">
          {claim.messages.map((m) => (
            <li key={m.id} className={`message message-${m.senderType}`}>
              <p className="message-meta">
                <strong>{m.senderName}</strong> ({m.senderType}) ·{' '}
                <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
              </p>
              {m.messageContent ? <MessageText text={stripHtml(m.messageContent)} /> : null}
              {m.medias.length > 0 ? (
                <Attachments message={m} onOpen={(index) => setViewing({ messageId: m.id, index })} />
              ) : null}
            </li>
          ))}
        </ol>
      )}
      <Lightbox
        images={(viewed?.medias ?? [])
          .filter(isImage)
          .map((media, index) => ({ url: media.downloadLink, alt: `Attachment ${index + 1}: ${media.filename}` }))}
        startIndex={viewed ? viewing!.index : null}
        title={viewed ? `Attachments from ${viewed.senderName}` : undefined}
        onClose={() => setViewing(null)}
      />
      {canSend ? (
        <form className="stack" onSubmit={onSubmit} noValidate>
          <div className="field">
            <label htmlFor={`${id}-text`}>Message to the customer</label>
            <textarea
              id={`${id}-text`}
              rows={3}
              maxLength={10_000}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-files`}>Attach photos or videos</label>
            <input
              id={`${id}-files`}
              ref={fileInput}
              type="file"
              multiple
              accept={ACCEPT_ATTRIBUTE}
              onChange={(e) => onPick(e.target.files)}
            />
          </div>
          {files.length > 0 ? (
            <ul className="chips" aria-label="Files to send">
              {files.map((file, index) => (
                <li key={`${index}:${file.name}`} className="chip">
                  <span>{file.name}</span>
                  <button
                    type="button"
                    className="chip-remove"
                    aria-label={`Remove ${file.name}`}
                    onClick={() => setFiles((all) => all.filter((_, i) => i !== index))}
                  >
                    <span aria-hidden="true">×</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          {problem ? <Alert>{problem}</Alert> : null}
          {send.isError ? <Alert>{errorText(send.error)}</Alert> : null}
          {send.isSuccess ? <Alert tone="success">Message sent.</Alert> : null}
          <div className="actions">
            <button type="submit" className="button button-secondary" disabled={send.isPending}>
              Send message
            </button>
          </div>
        </form>
      ) : null}
    </FoldingCard>
  );
}
