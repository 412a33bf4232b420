import { storeSettingsStreamOf, type SettingsChange, type Store } from '@claims/contracts';
import { storeSettingsDecider, type SettingsRecord, type StoreSettingsState } from '@claims/domain';
import { storedDomainEvent, readStream, type Alongside } from '@claims/event-store';
import type { AppContext, RequestMeta } from '../context.js';
import { writeStoreSettings } from '../catalog/storeRepository.js';
import { foldRecorded, handleCommand, type Handled } from '../eventsourcing/commandHandler.js';

export interface SettingsStream {
  version: number;
  /** Each stored event with its version and actor, oldest first. */
  records: SettingsRecord[];
  /** The current settings; null while the store has no version (a store from before settings were events). */
  state: StoreSettingsState | null;
}

/** A store's settings stream, read and folded (small: one event per change). */
export async function readSettingsStream(ctx: AppContext, storeId: string): Promise<SettingsStream> {
  const { version, events } = await readStream(ctx.database.db, storeSettingsStreamOf(storeId));
  const records = events.map((e) => ({
    version: e.streamVersion,
    event: storedDomainEvent(e),
    actor: e.metadata.actor,
  }));
  return { version, records, state: foldRecorded(storeSettingsDecider, events) };
}

/** The catalog's copy of the settings, refolded inside the append's transaction (so it includes what just committed before it). */
const syncCatalog =
  (storeId: string): Alongside =>
  async (trx) => {
    const { events } = await readStream(trx, storeSettingsStreamOf(storeId));
    const state = foldRecorded(storeSettingsDecider, events);
    if (state) await writeStoreSettings(trx, storeId, state.settings);
  };

const handle = (
  ctx: AppContext,
  store: Store,
  meta: RequestMeta,
  command: Parameters<typeof storeSettingsDecider.decide>[0],
) =>
  handleCommand(ctx, {
    decider: storeSettingsDecider,
    streamId: storeSettingsStreamOf(store.id),
    storeId: store.id,
    meta,
    command,
    alongside: syncCatalog(store.id),
  });

/** Records the store's settings as its first version, once (the seed runs on every start). */
export async function initializeStoreSettings(ctx: AppContext, store: Store, meta: RequestMeta): Promise<void> {
  await handle(ctx, store, meta, {
    type: 'InitializeStoreSettings',
    storeId: store.id,
    settings: store.settings,
    now: ctx.now(),
  });
}

/**
 * Changes one group. Another group changed meanwhile is decided again on top of it; this group changed
 * after `seenVersion` is a 409 for the editor to see first.
 */
export function changeStoreSettings(
  ctx: AppContext,
  store: Store,
  change: SettingsChange,
  meta: RequestMeta,
  seenVersion?: number,
): Promise<Handled<StoreSettingsState | null>> {
  return handle(ctx, store, meta, {
    type: 'ChangeStoreSettings',
    storeId: store.id,
    change,
    baseline: store.settings,
    now: ctx.now(),
    ...(seenVersion === undefined ? {} : { seenVersion }),
  });
}
