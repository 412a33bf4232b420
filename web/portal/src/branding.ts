import { BUTTON_RADIUS, type Branding } from '@claims/contracts';

/** Font sizes run from 11px to 30px (docs/product.md#look-and-feel). */
const MIN_FONT_PX = 11;
const MAX_FONT_PX = 30;

/** A CSS length for a headline size, clamped to the spec's range; null when it is not a size. */
export function headlineSize(value: string | undefined): string | null {
  if (!value) return null;
  const match = /^(\d+(?:\.\d+)?)(px|rem)?$/.exec(value.trim());
  if (!match) return null;
  const px = Number(match[1]) * (match[2] === 'rem' ? 16 : 1);
  return `${Math.min(MAX_FONT_PX, Math.max(MIN_FONT_PX, px))}px`;
}

/** The domain is omitted on localhost (docs/product.md#http-client). */
export const isLocalHost = (host: string): boolean => host === 'localhost' || host === '127.0.0.1' || host === '[::1]';

/** Served on a host of its own (a store's custom domain, or the product's public one): the host may name the store. */
export const servedOnCustomDomain = (): boolean => !isLocalHost(window.location.hostname);

/** A background image the stylesheet can take: a same-origin path or an https address, quoted for `url()`. */
const safeImage = (value: string | undefined) =>
  value && /^(\/(?!\/)|https:\/\/)[^\s"'()\\]+$/.test(value.trim()) ? `url("${value.trim()}")` : null;

const safeFamily = (family: string) => family.replace(/[^\w\s-]/g, '').trim();
const safeColor = (value: string | undefined) =>
  value && /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\))$/i.test(value.trim()) ? value.trim() : undefined;
const loadedFonts = new Set<string>();

/**
 * Branding (docs/product.md#branding) applied as CSS custom properties (the stylesheet reads them; no inline style under the CSP):
 * brand colours, background colour and image, button radius, headline sizes, letter spacing, line heights, text transform,
 * logo widths and the store's font files (same-origin, loaded through the FontFace API).
 */
export function applyBranding(branding: Branding | undefined, root: HTMLElement = document.documentElement): void {
  const style = root.style;
  const set = (name: string, value: string | null | undefined) =>
    value ? style.setProperty(name, value) : style.removeProperty(name);
  set('--brand-100', safeColor(branding?.brand100));
  set('--brand-700', safeColor(branding?.brand700));
  set('--brand-800', safeColor(branding?.brand800));
  set('--brand-900', safeColor(branding?.brand900));
  set('--page-bg', safeColor(branding?.backgroundColor));
  set('--page-bg-image', safeImage(branding?.backgroundImage));
  set('--radius', branding?.buttonStyle ? BUTTON_RADIUS[branding.buttonStyle] : undefined);
  const sizes = branding?.headlineFontSizes ?? {};
  set('--h1-size', headlineSize(sizes.h1 ?? sizes.large ?? sizes.xl));
  set('--h2-size', headlineSize(sizes.h2 ?? sizes.medium ?? sizes.lg));
  const lines = branding?.lineHeights ?? {};
  set('--h1-line-height', lines.h1 && /^\d+(\.\d+)?(px|rem|em|%)?$/.test(lines.h1) ? lines.h1 : null);
  set('--h2-line-height', lines.h2 && /^\d+(\.\d+)?(px|rem|em|%)?$/.test(lines.h2) ? lines.h2 : null);
  set(
    '--headline-letter-spacing',
    branding?.letterSpacing && /^-?\d+(\.\d+)?(px|em|rem)$/.test(branding.letterSpacing)
      ? branding.letterSpacing
      : null,
  );
  set('--headline-transform', branding?.textTransform);
  const widths = branding?.logoWidths ?? {};
  set('--logo-width-mobile', typeof widths.mobile === 'number' ? `${widths.mobile}px` : null);
  set('--logo-width-desktop', typeof widths.desktop === 'number' ? `${widths.desktop}px` : null);

  const fonts = (branding?.fontFiles ?? []).filter((f) => safeFamily(f.family) && f.url.startsWith('/'));
  const family = fonts[0] ? safeFamily(fonts[0].family) : null;
  set('--brand-font', family ? `'${family}', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif` : null);
  if (typeof FontFace === 'undefined') return;
  for (const font of fonts) {
    const key = `${font.family}|${font.url}|${font.weight ?? ''}`;
    if (loadedFonts.has(key)) continue;
    loadedFonts.add(key);
    const face = new FontFace(safeFamily(font.family), `url(${encodeURI(font.url)})`, {
      weight: font.weight ? String(font.weight) : 'normal',
      display: 'swap',
    });
    // A font that fails to load leaves the system font in place (branding failures are swallowed: docs/product.md#messages-the-shopper-reads).
    face.load().then(
      (loaded) => document.fonts.add(loaded),
      () => undefined,
    );
  }
}
