import { hex as contrastOfHex } from 'wcag-contrast';
import {
  BRANDING_CONTRAST_PAIRS,
  PORTAL_DEFAULT_COLORS,
  WCAG_AA_TEXT_CONTRAST,
  type Branding,
  type ContrastCheck,
  type ContrastColor,
} from '@claims/contracts';

/** `#abc` → `#aabbcc`, lowercase; null when it is not an opaque hex colour. */
export function normalizeHex(value: string): string | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match) return null;
  const digits = match[1]!.toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits}`;
}

/** WCAG 2.x contrast ratio of two opaque hex colours (1 to 21), by the `wcag-contrast` package. */
export function contrastRatio(foreground: string, background: string): number {
  const fg = normalizeHex(foreground);
  const bg = normalizeHex(background);
  if (!fg || !bg) throw new Error(`not an opaque hex colour: ${fg ? background : foreground}`);
  return contrastOfHex(fg, bg);
}

/** Rounded down, so a ratio just under 4.5 never reads as 4.5. */
const floor2 = (ratio: number) => Math.floor(ratio * 100) / 100;

/** The colour the portal shows for a pair's side: the store's, else the stylesheet's default. */
function colorOf(branding: Branding, color: ContrastColor): string {
  if (color === 'white' || color === 'text' || color === 'muted') return PORTAL_DEFAULT_COLORS[color];
  return normalizeHex(branding[color] ?? '') ?? PORTAL_DEFAULT_COLORS[color];
}

/** Every text colour pair of the portal under this branding, each with its ratio against WCAG AA (4.5:1). */
export function brandingContrast(branding: Branding): ContrastCheck[] {
  return BRANDING_CONTRAST_PAIRS.map((pair) => {
    const foreground = colorOf(branding, pair.foreground);
    const background = colorOf(branding, pair.background);
    const ratio = contrastRatio(foreground, background);
    return {
      id: pair.id,
      label: pair.label,
      foreground,
      background,
      ratio: floor2(ratio),
      passes: ratio >= WCAG_AA_TEXT_CONTRAST,
    };
  });
}

/** "Button text on the primary colour: #ffffff on #f0f0f0 is 1.13:1" for each failing pair; empty when all pass. */
export function contrastFailures(branding: Branding): string[] {
  return brandingContrast(branding)
    .filter((check) => !check.passes)
    .map((check) => `${check.label}: ${check.foreground} on ${check.background} is ${check.ratio.toFixed(2)}:1`);
}
