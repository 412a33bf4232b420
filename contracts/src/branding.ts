import { z } from 'zod';
import { Actor } from './events.js';
import { Branding } from './store.js';

/**
 * The branding editor and white label (docs/product.md#branding; the `branding` and `whitelabel` permissions):
 * what a change must satisfy, the colour pairs the portal puts text on, and the back-office's shapes.
 * The versions live in the store's `store-branding:{storeId}` stream (docs/decisions/branding-and-white-label.md).
 */

/** An opaque colour as the editor takes it: `#rgb` or `#rrggbb` (contrast needs an opaque colour). */
export const HexColor = z
  .string()
  .trim()
  .regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, 'Enter a colour as #rrggbb.');

/** A same-origin path (`/brand/logo.svg`) or an https address: the portal's CSP loads images and fonts from its own origin. */
const AssetUrl = z
  .string()
  .trim()
  .max(2_000)
  .regex(/^(\/(?!\/)[^\s"'()\\]*|https:\/\/[^\s"'()\\]+)$/, 'Enter a path on this site (/…) or an https address.');
const FontAsset = z
  .string()
  .trim()
  .max(2_000)
  .regex(/^\/(?!\/)[^\s"'()\\]*$/, 'Font files are served from this site: enter a path starting with /.');
/** A CSS size the portal clamps to 11–30px (docs/product.md#look-and-feel): `24px`, `1.5rem` or a bare number of pixels. */
const HeadlineSize = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?(px|rem)?$/, 'Enter a size such as 28px or 1.75rem.');
const LineHeight = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?(px|rem|em|%)?$/, 'Enter a line height such as 1.2 or 32px.');
const LetterSpacing = z
  .string()
  .trim()
  .regex(/^-?\d+(\.\d+)?(px|em|rem)$/, 'Enter a letter spacing such as 0.02em or 1px.');
const LogoWidth = z.number().int().min(16).max(600);

/** The headline levels and logo sizes the portal reads (its stylesheet's custom properties). */
export const HEADLINE_LEVELS = ['h1', 'h2'] as const;
export const LOGO_SIZES = ['mobile', 'desktop'] as const;

/** A branding change: the whole new branding (docs/product.md#branding), each field checked; contrast is the domain's rule on top. */
export const BrandingInput = z
  .object({
    backgroundColor: HexColor.optional(),
    backgroundImage: AssetUrl.optional(),
    brand100: HexColor.optional(),
    brand700: HexColor.optional(),
    brand800: HexColor.optional(),
    brand900: HexColor.optional(),
    headlineFontSizes: z.partialRecord(z.enum(HEADLINE_LEVELS), HeadlineSize).optional(),
    letterSpacing: LetterSpacing.optional(),
    lineHeights: z.partialRecord(z.enum(HEADLINE_LEVELS), LineHeight).optional(),
    textTransform: Branding.shape.textTransform,
    logoWidths: z.partialRecord(z.enum(LOGO_SIZES), LogoWidth).optional(),
    buttonStyle: Branding.shape.buttonStyle,
    logoUrl: AssetUrl.optional(),
    fontFiles: z
      .array(
        z.object({
          family: z
            .string()
            .trim()
            .min(1)
            .max(80)
            .regex(/^[\w\s-]+$/, 'A font family is letters, digits, spaces and dashes.'),
          url: FontAsset,
          weight: z.number().int().min(100).max(900).optional(),
        }),
      )
      .max(4)
      .optional(),
  })
  .strict();
export type BrandingInput = z.infer<typeof BrandingInput>;

/** The colours the portal's stylesheet uses when a store sets none (web/portal/src/styles.css `:root`). */
export const PORTAL_DEFAULT_COLORS = {
  backgroundColor: '#ffffff',
  brand100: '#e6eef6',
  brand700: '#1f4e79',
  brand800: '#173b5c',
  brand900: '#0f2740',
  white: '#ffffff',
  text: '#111827',
  muted: '#4b5563',
} as const;
export type BrandingColorField = 'backgroundColor' | 'brand100' | 'brand700' | 'brand800' | 'brand900';
/** A colour of a pair: one of the store's fields, or one the portal fixes (white cards, body text). */
export type ContrastColor = BrandingColorField | 'white' | 'text' | 'muted';

/** WCAG 2.x AA for normal-size text (1.4.3). */
export const WCAG_AA_TEXT_CONTRAST = 4.5;

/** Every pair of colours the portal puts text on, with where: the editor and the server check each one. */
export const BRANDING_CONTRAST_PAIRS: ReadonlyArray<{
  id: string;
  label: string;
  foreground: ContrastColor;
  background: ContrastColor;
}> = [
  { id: 'button', label: 'Button text on the primary colour', foreground: 'white', background: 'brand700' },
  { id: 'button-hover', label: 'Button text on the hover colour', foreground: 'white', background: 'brand800' },
  { id: 'link-card', label: 'Links and outlined buttons on white cards', foreground: 'brand700', background: 'white' },
  { id: 'link-page', label: 'Links on the page background', foreground: 'brand700', background: 'backgroundColor' },
  {
    id: 'heading-page',
    label: 'Store name and headings on the page background',
    foreground: 'brand900',
    background: 'backgroundColor',
  },
  { id: 'notice', label: 'Notices and badges (darkest on lightest)', foreground: 'brand900', background: 'brand100' },
  { id: 'body-page', label: 'Body text on the page background', foreground: 'text', background: 'backgroundColor' },
  { id: 'muted-page', label: 'Hints on the page background', foreground: 'muted', background: 'backgroundColor' },
];

/** One checked pair: its colours and ratio (rounded down to two decimals, so 4.499 never shows as 4.5). */
export const ContrastCheck = z.object({
  id: z.string(),
  label: z.string(),
  foreground: z.string(),
  background: z.string(),
  ratio: z.number(),
  passes: z.boolean(),
});
export type ContrastCheck = z.infer<typeof ContrastCheck>;

/** A store's custom portal domain: a lowercase host name with at least one dot, no port or path. */
export const PortalDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'Enter a host name such as claims.example.com (no https://, port or path).',
  );

/** `whitelabel`: the custom domain the store's portal is served on (null: none) (docs/product.md#branding). */
export const WhitelabelInput = z.object({ domain: PortalDomain.nullable() });
export type WhitelabelInput = z.infer<typeof WhitelabelInput>;

/** One version of the branding stream, newest first in the history. */
export const BrandingHistoryEntry = z.object({
  version: z.number().int().positive(),
  kind: z.enum(['branding', 'domain', 'restart']),
  at: z.iso.datetime(),
  actor: Actor,
  /** Branding: the fields that moved; domain: the new domain; restart: empty. */
  summary: z.string(),
});
export type BrandingHistoryEntry = z.infer<typeof BrandingHistoryEntry>;

/** `GET /api/admin/stores/{storeId}/branding`: the branding and domain now, with every version. */
export const BrandingView = z.object({
  storeId: z.uuid(),
  storeName: z.string(),
  /** The branding stream's version, for `expectedVersion`. */
  version: z.number().int().nonnegative(),
  branding: Branding,
  domain: z.string().nullable(),
  /** How many times white label was restarted (the portal's branding cache key). */
  revision: z.number().int().nonnegative(),
  contrast: z.array(ContrastCheck),
  history: z.array(BrandingHistoryEntry),
});
export type BrandingView = z.infer<typeof BrandingView>;

export const UpdateBrandingRequest = z.object({
  branding: BrandingInput,
  expectedVersion: z.number().int().nonnegative().optional(),
});
export const UpdateWhitelabelRequest = WhitelabelInput.extend({
  expectedVersion: z.number().int().nonnegative().optional(),
});

/** `GET /api/admin/whitelabel` (`whitelabel:list`): every store the caller sees with its custom domain. */
export const WhitelabelListResponse = z.object({
  stores: z.array(
    z.object({
      storeId: z.uuid(),
      storeName: z.string(),
      domain: z.string().nullable(),
      revision: z.number().int().nonnegative(),
    }),
  ),
});
export type WhitelabelListResponse = z.infer<typeof WhitelabelListResponse>;

/**
 * The portal's preview mode: the back-office posts the unsaved branding to the portal in its frame.
 * Same origin only; the portal ignores anything else.
 */
export const BRANDING_PREVIEW_MESSAGE = 'claims:branding-preview';
export const BrandingPreviewMessage = z.object({
  type: z.literal(BRANDING_PREVIEW_MESSAGE),
  storeName: z.string().max(200),
  branding: Branding,
});
export type BrandingPreviewMessage = z.infer<typeof BrandingPreviewMessage>;

// Commands of the branding stream.
export const ChangeBranding = z.object({
  type: z.literal('ChangeBranding'),
  storeId: z.uuid(),
  branding: Branding,
  baseline: Branding,
  now: z.iso.datetime(),
});
export const SetPortalDomain = z.object({
  type: z.literal('SetPortalDomain'),
  storeId: z.uuid(),
  domain: z.string().nullable(),
  baseline: z.string().nullable(),
  now: z.iso.datetime(),
});
export const RestartWhitelabel = z.object({
  type: z.literal('RestartWhitelabel'),
  storeId: z.uuid(),
  domain: z.string().nullable(),
  now: z.iso.datetime(),
});
export const BrandingCommand = z.discriminatedUnion('type', [ChangeBranding, SetPortalDomain, RestartWhitelabel]);
export type BrandingCommand = z.infer<typeof BrandingCommand>;
