import { z } from 'zod';
import { CurrencyCode } from './money.js';
import { StoreSettings } from './storeSettings.js';

/** Spec §3 branding settings (every field optional: a store brands what it wants). */
export const Branding = z.object({
  backgroundColor: z.string().optional(),
  backgroundImage: z.string().optional(),
  brand100: z.string().optional(),
  brand700: z.string().optional(),
  brand800: z.string().optional(),
  brand900: z.string().optional(),
  headlineFontSizes: z.record(z.string(), z.string()).optional(),
  letterSpacing: z.string().optional(),
  lineHeights: z.record(z.string(), z.string()).optional(),
  textTransform: z.enum(['none', 'uppercase', 'lowercase', 'capitalize']).optional(),
  logoWidths: z.record(z.string(), z.number()).optional(),
  buttonStyle: z.enum(['ROUNDED', 'ROUNDED_FULL', 'SQUARE']).optional(),
  logoUrl: z.string().optional(),
  fontFiles: z.array(z.object({ family: z.string(), url: z.string(), weight: z.number().optional() })).optional(),
});
export type Branding = z.infer<typeof Branding>;

/** Spec §9: button radius per button style. */
export const BUTTON_RADIUS = { ROUNDED: '6px', ROUNDED_FULL: '9999px', SQUARE: '0px' } as const;

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

/** `GET /api/stores/{id}`: the public facts of a store. */
export const PublicStore = Store.pick({ id: true, slug: true, name: true, currency: true, branding: true }).extend({
  capabilities: StoreSettings.shape.capabilities,
  credit: StoreSettings.shape.credit,
  returns: StoreSettings.shape.returns,
});
export type PublicStore = z.infer<typeof PublicStore>;

export const WhitelabelSettings = z.object({ storeId: z.uuid(), storeName: z.string(), branding: Branding });
export type WhitelabelSettings = z.infer<typeof WhitelabelSettings>;
