import { z } from 'zod';
import { DomainFailure, QueueSort, SearchMatch, SortOrder } from '@claims/contracts';

/** Where a page of the queue ends: the sort it was cut by, the search's kind of match, and the last row's key and id. */
const QueueCursor = z.object({
  sort: QueueSort,
  order: SortOrder,
  match: SearchMatch.nullable(),
  /** The sort key of the last row: an ISO instant, or the value in minor units. */
  key: z.union([z.iso.datetime({ offset: true }), z.string().regex(/^-?\d{1,18}$/)]),
  id: z.uuid(),
});
export type QueueCursor = z.infer<typeof QueueCursor>;

export const encodeQueueCursor = (cursor: QueueCursor): string =>
  Buffer.from(JSON.stringify(cursor)).toString('base64url');

/** The cursor, or a 400 when it is not one this API gave out, or was given out for another sort. */
export function decodeQueueCursor(text: string, sort: QueueSort, order: SortOrder): QueueCursor {
  let parsed: z.ZodSafeParseResult<QueueCursor>;
  try {
    parsed = QueueCursor.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw new DomainFailure('validation_failed', 'The cursor is not one this API gave out.');
  }
  if (!parsed.success) throw new DomainFailure('validation_failed', 'The cursor is not one this API gave out.');
  if (parsed.data.sort !== sort || parsed.data.order !== order) {
    throw new DomainFailure(
      'validation_failed',
      'The cursor belongs to another sort order: start from the first page.',
    );
  }
  return parsed.data;
}
