import { LOCALE } from '@claims/format';

/** The locale cookie lasts 365 days (docs/product.md#text). */
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Remembers the portal's locale (en-US, the only one) for 365 days, renewed on each visit. */
export function rememberLocale(): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `locale=${LOCALE}; Max-Age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
}
