import { z } from 'zod';
import { CurrencyCode } from './money.js';
import { StoreSettings } from './storeSettings.js';
import { Branding } from './storeBranding.js';

// Branding and the whitelabel answer live apart: the portal's header reads them without building the store's settings.
export { Branding, BUTTON_RADIUS, WhitelabelSettings } from './storeBranding.js';

export const Store = z.object({
  id: z.uuid(),
  accountId: z.uuid(),
  slug: z.string(),
  name: z.string(),
  domain: z.string().nullable(),
  currency: CurrencyCode,
  settings: StoreSettings,
  branding: Branding,
});
export type Store = z.infer<typeof Store>;

/** The path parameters of a route under `/stores/{storeId}`. */
export const StoreParams = z.object({ storeId: z.uuid() });
export type StoreParams = z.infer<typeof StoreParams>;

/** `GET /api/stores/{id}`: the public facts of a store. */
export const PublicStore = Store.pick({ id: true, slug: true, name: true, currency: true, branding: true }).extend({
  capabilities: StoreSettings.shape.capabilities,
  credit: StoreSettings.shape.credit,
  returns: StoreSettings.shape.returns,
  /** The store's claim acknowledgment, shown once a claim is received; null when it has none turned on. */
  claimAcknowledgment: z.string().nullable(),
});
export type PublicStore = z.infer<typeof PublicStore>;
