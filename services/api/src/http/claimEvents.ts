import { Message, Review } from '@claims/contracts';

type EventLike = { type: string; data: unknown };

/** The messages among a claim's events (recorded or just decided), oldest first. */
export const messagesOf = (events: readonly EventLike[]): Message[] =>
  events.filter((e) => e.type === 'ClaimMessageSent').map((e) => Message.parse(e.data));

export const reviewsOf = (events: readonly EventLike[]): Review[] =>
  events.filter((e) => e.type === 'ClaimReviewed').map((e) => Review.parse(e.data));

/** The one thing a command was decided to create (a message, a review, a note). */
export function created<T>(found: readonly T[], what: string): T {
  const [first] = found;
  if (first === undefined) throw new Error(`The command decided no ${what}`);
  return first;
}
