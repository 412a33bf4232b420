import { z } from 'zod';

// Kept apart from the store's settings: the portal's chrome (the whitelabel answer) shows these without building the rest.

/** The store's policy pages, linked from the portal's footer (docs/decisions/store-settings.md). */
export const PoliciesSettings = z.object({
  termsUrl: z.string().nullable(),
  privacyUrl: z.string().nullable(),
  protectionTermsUrl: z.string().nullable(),
});
export type PoliciesSettings = z.infer<typeof PoliciesSettings>;

/** How shoppers reach the store's own support: the portal's footer shows it. */
export const ContactSettings = z.object({ supportEmail: z.string().nullable(), supportPhone: z.string().nullable() });
export type ContactSettings = z.infer<typeof ContactSettings>;
