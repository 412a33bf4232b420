/** A message's text cut into plain text and the web addresses in it. */
export type MessagePart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const ADDRESS = /\bhttps?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that ends a sentence around an address more often than it belongs to it. */
const TRAILING = /[.,;:!?)\]}]+$/;

/**
 * The http and https addresses of a message as links, everything else as text: no other scheme
 * (javascript:, data:, mailto:) ever becomes a link, and an address that does not parse stays text.
 */
export function messageParts(text: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let at = 0;
  const push = (part: MessagePart) => {
    const last = parts.at(-1);
    if (part.kind === 'text' && last?.kind === 'text') last.text += part.text;
    else if (part.text) parts.push(part);
  };
  for (const match of text.matchAll(ADDRESS)) {
    const start = match.index;
    const address = match[0].replace(TRAILING, '');
    push({ kind: 'text', text: text.slice(at, start) });
    let href: string | null = null;
    try {
      const url = new URL(address);
      if (url.protocol === 'http:' || url.protocol === 'https:') href = url.href;
    } catch {
      href = null;
    }
    push(href ? { kind: 'link', text: address, href } : { kind: 'text', text: address });
    at = start + address.length;
  }
  push({ kind: 'text', text: text.slice(at) });
  return parts;
}
