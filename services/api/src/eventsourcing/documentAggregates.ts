import type { Decider } from '@claims/domain';
import { readStreamsOfType } from '@claims/event-store';
import type { StreamType } from '@claims/contracts';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { foldRecorded, handleCommand, loadAggregate, REFUSE } from './commandHandler.js';

/** A small thing people write and edit in the back-office (a macro, an SOP): deleted ones stay in their stream. */
type Document = { deleted: boolean; createdAt: string };

export interface LiveDocument<S> {
  state: S;
  version: number;
}

/** One live document of this store (`null`: a global one), or the 404 `notFound` makes. */
export async function liveDocument<S extends Document & { storeId: string | null }>(
  ctx: AppContext,
  decider: Decider<S | null, unknown>,
  id: string,
  storeId: string | null,
  notFound: () => AppError,
): Promise<LiveDocument<S>> {
  const { state, version } = await loadAggregate(ctx, decider, id);
  if (!state || state.deleted || state.storeId !== storeId) throw notFound();
  return { state, version };
}

/** Every live document of a type for one store (`null`: the global ones), oldest first, folded from their streams. */
export async function listDocuments<S extends Document>(
  ctx: AppContext,
  decider: Decider<S | null, unknown>,
  streamType: StreamType,
  storeId: string | null,
): Promise<Array<LiveDocument<S>>> {
  const live: Array<LiveDocument<S>> = [];
  for (const stream of await readStreamsOfType(ctx.database.db, streamType, storeId)) {
    const state = foldRecorded(decider, stream.events);
    if (state && !state.deleted) live.push({ state, version: stream.version });
  }
  return live.sort((a, b) => a.state.createdAt.localeCompare(b.state.createdAt));
}

/** A person's edit: a concurrent change is a 409 for them to see, never decided again behind their back. */
export async function editDocument<S extends Document, C>(
  ctx: AppContext,
  decider: Decider<S | null, C>,
  id: string,
  storeId: string | null,
  command: C,
  meta: RequestMeta,
  expectedVersion?: number,
): Promise<LiveDocument<S>> {
  const handled = await handleCommand(ctx, {
    decider,
    streamId: id,
    storeId,
    command,
    meta,
    expectedVersion,
    onConflict: REFUSE,
  });
  if (!handled.state) throw new AppError('not_found', 'Nothing matches that reference.');
  return { state: handled.state, version: handled.version };
}

/** A person's edit of a live document of this store (`null`: a global one), or the 404 `notFound` makes. */
export async function editLiveDocument<S extends Document & { storeId: string | null }, C>(
  ctx: AppContext,
  decider: Decider<S | null, C>,
  notFound: () => AppError,
  { id, storeId }: { id: string; storeId: string | null },
  command: C,
  meta: RequestMeta,
  expectedVersion?: number,
): Promise<LiveDocument<S>> {
  await liveDocument(ctx, decider, id, storeId, notFound);
  return editDocument(ctx, decider, id, storeId, command, meta, expectedVersion);
}
