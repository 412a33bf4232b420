import type { StoreRef } from '@claims/contracts';

/** A store's name from the stores the user sees (its id when it is not among them). */
export const storeNameOf = (stores: readonly StoreRef[], storeId: string): string =>
  stores.find((s) => s.id === storeId)?.name ?? storeId;

/** The first block of a UUID: enough to tell a page's batches and replays apart when read aloud (a claim goes by its number). */
export const shortId = (id: string): string => id.slice(0, 8);
