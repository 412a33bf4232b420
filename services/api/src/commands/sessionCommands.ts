import { createHash } from 'node:crypto';
import { DomainEvent, type ClaimSession, type SessionCommand } from '@claims/contracts';
import { decideSession, evolveSession, type SessionState } from '@claims/domain';
import { appendToStream, readStream } from '@claims/event-store';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { groupByStream } from './newEvents.js';

/** One session per order: its id is derived from the order's id, so any device finds the same one. */
export function sessionIdOf(orderId: string): string {
  const hex = createHash('sha256').update(`claim-session:${orderId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function loadSession(ctx: AppContext, sessionId: string): Promise<{ state: SessionState; version: number; updatedAt: string | null }> {
  const { version, events } = await readStream(ctx.database.db, sessionId);
  let state: SessionState = null;
  for (const e of events) state = evolveSession(state, DomainEvent.parse({ type: e.type, data: e.data }));
  return { state, version, updatedAt: events.at(-1)?.occurredAt ?? null };
}

export const toSessionView = (state: NonNullable<SessionState>, updatedAt: string | null, now: string): ClaimSession =>
  ({ ...state, updatedAt: updatedAt ?? now });

const MAX_ATTEMPTS = 3;

export async function executeSessionCommand(ctx: AppContext, command: SessionCommand, meta: RequestMeta, storeId: string | null): Promise<ClaimSession | null> {
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadSession(ctx, command.sessionId);
    const decision = decideSession(command, loaded.state);
    if (!decision.ok) throw AppError.from(decision.error);
    if (decision.value.length === 0) return loaded.state && toSessionView(loaded.state, loaded.updatedAt, ctx.now());
    const [group] = groupByStream(decision.value, meta).values();
    const result = await appendToStream(ctx.database.db, {
      streamId: command.sessionId, streamType: 'claim-session', storeId, expectedVersion: loaded.version, events: group!.events,
    });
    if (result.ok) {
      ctx.notifyAppended();
      let state = loaded.state;
      for (const event of decision.value) state = evolveSession(state, event);
      return state && toSessionView(state, ctx.now(), ctx.now());
    }
    if (attempt >= MAX_ATTEMPTS) throw new AppError('version_conflict', 'The session changed on another device; reload it.');
  }
}

/** Spec §4: the draft is deleted once the claim is submitted. */
export async function endSessionAfterFiling(ctx: AppContext, orderId: string, meta: RequestMeta): Promise<void> {
  const sessionId = sessionIdOf(orderId);
  const loaded = await loadSession(ctx, sessionId);
  if (loaded.state) await executeSessionCommand(ctx, { type: 'DeleteSession', sessionId, reason: 'claim_filed' }, meta, null);
}
