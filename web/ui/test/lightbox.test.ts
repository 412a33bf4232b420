import { describe, expect, it } from 'vitest';
import {
  LIGHTBOX_DEFAULTS,
  canStep,
  initialView,
  resetView,
  rotateBy,
  step,
  swipeDirection,
  zoomBy,
} from '../src/lightbox.js';

describe('lightbox defaults (docs/product.md#lightbox)', () => {
  it('has the spec defaults', () => {
    expect(LIGHTBOX_DEFAULTS).toEqual({
      zoomStep: 0.12,
      maxZoom: 3,
      minZoom: 0.1,
      swipeTolerance: 50,
      wheelThrottleMs: 80,
    });
  });

  it('zooms by 0.12 between 0.1 and 3', () => {
    expect(zoomBy(initialView(), 1).zoom).toBe(1.12);
    expect(zoomBy(initialView(), -1).zoom).toBe(0.88);
    let view = initialView();
    for (let i = 0; i < 40; i++) view = zoomBy(view, 1);
    expect(view.zoom).toBe(3);
    for (let i = 0; i < 40; i++) view = zoomBy(view, -1);
    expect(view.zoom).toBe(0.1);
  });

  it('rotates in quarter turns and resets', () => {
    expect(rotateBy(initialView(), -1).rotation).toBe(270);
    expect(rotateBy(rotateBy(initialView(), 1), 1).rotation).toBe(180);
    expect(resetView({ index: 2, zoom: 2, rotation: 90 })).toEqual({ index: 2, zoom: 1, rotation: 0 });
  });

  it('pages, disabled at the ends unless looping', () => {
    expect(step(initialView(0), -1, 3)).toEqual(initialView(0));
    expect(step({ index: 0, zoom: 2, rotation: 90 }, 1, 3)).toEqual(initialView(1));
    expect(step(initialView(2), 1, 3)).toEqual(initialView(2));
    expect(step(initialView(2), 1, 3, true)).toEqual(initialView(0));
    expect(canStep(0, -1, 3)).toBe(false);
    expect(canStep(0, 1, 3)).toBe(true);
    expect(canStep(0, 1, 1)).toBe(false);
    expect(canStep(0, -1, 3, true)).toBe(true);
  });

  it('reads swipes past the tolerance, swapped right-to-left', () => {
    expect(swipeDirection(-49)).toBe(0);
    expect(swipeDirection(-60)).toBe(1);
    expect(swipeDirection(60)).toBe(-1);
    expect(swipeDirection(-60, true)).toBe(-1);
  });
});
