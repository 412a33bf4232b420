/**
 * Image lightbox (docs/product.md#lightbox), the part without a screen: its defaults and how zoom, rotation and
 * paging move. The React component (`@claims/ui/lightbox`) only draws this state.
 */
export const LIGHTBOX_DEFAULTS = {
  zoomStep: 0.12,
  maxZoom: 3,
  minZoom: 0.1,
  swipeTolerance: 50,
  wheelThrottleMs: 80,
} as const;

export interface LightboxView {
  index: number;
  zoom: number;
  /** Degrees, a multiple of 90 in [0, 360). */
  rotation: number;
}

export const initialView = (index = 0): LightboxView => ({ index, zoom: 1, rotation: 0 });

const round = (value: number) => Math.round(value * 1000) / 1000;

/** One zoom step in (`+1`) or out (`-1`), kept between the minimum and maximum zoom. */
export function zoomBy(view: LightboxView, direction: 1 | -1, options = LIGHTBOX_DEFAULTS): LightboxView {
  const zoom = round(Math.min(options.maxZoom, Math.max(options.minZoom, view.zoom + direction * options.zoomStep)));
  return { ...view, zoom };
}

/** A quarter turn right (`+1`) or left (`-1`). */
export function rotateBy(view: LightboxView, direction: 1 | -1): LightboxView {
  return { ...view, rotation: (((view.rotation + direction * 90) % 360) + 360) % 360 };
}

/** Reset size: zoom 1 and no rotation, same image. */
export const resetView = (view: LightboxView): LightboxView => initialView(view.index);

/**
 * The image after a step forward (`+1`) or back (`-1`): at the ends it stays put unless looping.
 * A new image starts unzoomed and unrotated.
 */
export function step(view: LightboxView, direction: 1 | -1, count: number, loop = false): LightboxView {
  if (count <= 1) return view;
  let index = view.index + direction;
  if (index < 0 || index >= count) {
    if (!loop) return view;
    index = (index + count) % count;
  }
  return initialView(index);
}

export const canStep = (index: number, direction: 1 | -1, count: number, loop = false): boolean =>
  count > 1 && (loop || (direction === 1 ? index < count - 1 : index > 0));

/** A horizontal swipe beyond the tolerance pages; in right-to-left mode the directions swap. */
export function swipeDirection(
  deltaX: number,
  rtl = false,
  tolerance: number = LIGHTBOX_DEFAULTS.swipeTolerance,
): 1 | -1 | 0 {
  if (Math.abs(deltaX) < tolerance) return 0;
  const forward = deltaX < 0 ? 1 : -1;
  return rtl ? (forward === 1 ? -1 : 1) : forward;
}
