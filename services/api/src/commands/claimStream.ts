import { DomainEvent, type Claim } from '@claims/contracts';
import { evolveClaim } from '@claims/domain';
import { readStream, type RecordedEvent } from '@claims/event-store';
import type { AppContext } from '../context.js';

export interface LoadedClaim {
  claim: Claim | null;
  version: number;
  events: RecordedEvent[];
}

/** A claim rebuilt from its stream (optionally as it stood at a version): always current, no read model lag. */
export async function loadClaim(ctx: AppContext, claimId: string, untilVersion?: number): Promise<LoadedClaim> {
  const { version, events } = await readStream(ctx.database.db, claimId, untilVersion);
  let claim: Claim | null = null;
  for (const event of events) claim = evolveClaim(claim, DomainEvent.parse({ type: event.type, data: event.data }));
  return { claim, version, events };
}
