import { messageParts } from '@claims/ui';

/**
 * A message's text with its web addresses as links: only http and https (messageParts), opened in a
 * new tab without handing it this page (noopener) or the back-office's address (noreferrer).
 */
export function MessageText({ text }: { text: string }) {
  return (
    <p className="message-text">
      {messageParts(text).map((part, i) =>
        part.kind === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}
