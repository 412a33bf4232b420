import { z } from 'zod';
import { ContactSettings, PoliciesSettings } from './storeHelp.js';

/** Branding settings (every field optional: a store brands what it wants) (docs/product.md#branding). */
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

export { BUTTON_RADIUS } from './buttonRadius.js';

/** The portal's chrome: the store's look, and its help and policy links for the footer (as set now). */
export const WhitelabelSettings = z.object({
  storeId: z.uuid(),
  storeName: z.string(),
  branding: Branding,
  contact: ContactSettings,
  policies: PoliciesSettings,
});
export type WhitelabelSettings = z.infer<typeof WhitelabelSettings>;
