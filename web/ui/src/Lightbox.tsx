import { useEffect, useId, useRef, useState, type PointerEvent, type WheelEvent } from 'react';
import {
  LIGHTBOX_DEFAULTS,
  canStep,
  initialView,
  resetView,
  rotateBy,
  step,
  swipeDirection,
  zoomBy,
  type LightboxView,
} from './lightbox.js';
import './lightbox.css';

export interface LightboxImage {
  url: string;
  /** What the image shows, for screen readers. */
  alt: string;
}

export interface LightboxProps {
  images: readonly LightboxImage[];
  /** The image shown first; the lightbox is open while this is not null. */
  startIndex: number | null;
  onClose: () => void;
  title?: string;
  loop?: boolean;
  rtl?: boolean;
  /** Body scroll can be hidden while open (default true) (docs/product.md#lightbox). */
  hideBodyScroll?: boolean;
}

type LoadState = 'loading' | 'loaded' | 'error';

/** Broken-image icon (docs/product.md#lightbox). */
function BrokenImageIcon() {
  return (
    <svg className="lightbox-broken" viewBox="0 0 24 24" width="64" height="64" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M21 5v6.59l-3-3.01-4 4.01-4-4-4 4-3-3.01V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2Zm-3 6.42 3 3.01V19a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-6.58l3 2.99 4-4 4 4 4-4Z"
      />
    </svg>
  );
}

/**
 * Image lightbox (docs/product.md#lightbox): previous/next (only with more than one image, disabled at the ends
 * unless looping), close, a toolbar (zoom in, zoom out, rotate left, rotate right, reset size),
 * an optional title, loading and load-error states, right-to-left mode, keyboard, wheel (throttled)
 * and swipe, hidden body scroll. A native modal dialog: focus stays inside, Escape closes.
 */
export function Lightbox({
  images,
  startIndex,
  onClose,
  title,
  loop = false,
  rtl = false,
  hideBodyScroll = true,
}: LightboxProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [view, setView] = useState<LightboxView>(initialView(startIndex ?? 0));
  const [load, setLoad] = useState<LoadState>('loading');
  const lastWheel = useRef(0);
  const swipeStart = useRef<number | null>(null);
  const open = startIndex !== null;
  const count = images.length;
  const image = images[view.index];

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open) {
      setView(initialView(startIndex));
      setLoad('loading');
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) {
      dialog.close();
    }
  }, [open, startIndex]);

  useEffect(() => {
    if (!open || !hideBodyScroll) return;
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previous;
    };
  }, [open, hideBodyScroll]);

  // Resize handling: a new viewport refits the image from scratch.
  useEffect(() => {
    if (!open) return;
    const onResize = () => setView((v) => resetView(v));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [open]);

  const go = (direction: 1 | -1) => {
    const next = step(view, direction, count, loop);
    if (next.index === view.index) return;
    setLoad('loading');
    setView(next);
  };

  // Visual left/right: in right-to-left mode "previous" sits on the right.
  const back: 1 | -1 = rtl ? 1 : -1;
  const forward: 1 | -1 = rtl ? -1 : 1;

  // Keys are read on the document while open: a button that just became disabled (the last image)
  // drops focus to the body, and the keys must keep working.
  const goRef = useRef(go);
  goRef.current = go;
  useEffect(() => {
    if (!open) return;
    function onKeyDown(event: globalThis.KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      switch (event.key) {
        case 'ArrowLeft':
          goRef.current(back);
          break;
        case 'ArrowRight':
          goRef.current(forward);
          break;
        case '+':
        case '=':
          setView((v) => zoomBy(v, 1));
          break;
        case '-':
        case '_':
          setView((v) => zoomBy(v, -1));
          break;
        case 'r':
          setView((v) => rotateBy(v, 1));
          break;
        case 'R':
          setView((v) => rotateBy(v, -1));
          break;
        case '0':
          setView((v) => resetView(v));
          break;
        default:
          return;
      }
      event.preventDefault();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, back, forward]);

  // Focus never leaves the dialog (a disabled button would hand it to the body).
  useEffect(() => {
    const dialog = dialogRef.current;
    if (open && dialog && !dialog.contains(document.activeElement)) dialog.focus();
  }, [open, view.index]);

  function onWheel(event: WheelEvent<HTMLDivElement>) {
    const now = Date.now();
    if (now - lastWheel.current < LIGHTBOX_DEFAULTS.wheelThrottleMs) return;
    lastWheel.current = now;
    setView((v) => zoomBy(v, event.deltaY < 0 ? 1 : -1));
  }

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    swipeStart.current = event.clientX;
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (swipeStart.current === null) return;
    const direction = swipeDirection(event.clientX - swipeStart.current, rtl);
    swipeStart.current = null;
    if (direction !== 0) go(direction);
  };

  const label = title ?? 'Photo viewer';
  return (
    <dialog
      ref={dialogRef}
      className="lightbox"
      aria-labelledby={titleId}
      dir={rtl ? 'rtl' : 'ltr'}
      tabIndex={-1}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && image ? (
        <div className="lightbox-frame">
          <div className="lightbox-bar">
            <h2 id={titleId} className="lightbox-title">
              {label}
            </h2>
            <p className="lightbox-count" aria-live="polite">
              Image {view.index + 1} of {count}
            </p>
            <div className="lightbox-tools" role="toolbar" aria-label="Image tools">
              <button
                type="button"
                onClick={() => setView((v) => zoomBy(v, 1))}
                disabled={view.zoom >= LIGHTBOX_DEFAULTS.maxZoom}
              >
                Zoom in
              </button>
              <button
                type="button"
                onClick={() => setView((v) => zoomBy(v, -1))}
                disabled={view.zoom <= LIGHTBOX_DEFAULTS.minZoom}
              >
                Zoom out
              </button>
              <button type="button" onClick={() => setView((v) => rotateBy(v, -1))}>
                Rotate left
              </button>
              <button type="button" onClick={() => setView((v) => rotateBy(v, 1))}>
                Rotate right
              </button>
              <button type="button" onClick={() => setView((v) => resetView(v))}>
                Reset size
              </button>
              <button type="button" className="lightbox-close" onClick={onClose}>
                Close
              </button>
            </div>
          </div>
          <div className="lightbox-stage" onWheel={onWheel} onPointerDown={onPointerDown} onPointerUp={onPointerUp}>
            {count > 1 ? (
              <button
                type="button"
                className="lightbox-nav"
                onClick={() => go(back)}
                disabled={!canStep(view.index, back, count, loop)}
              >
                {rtl ? 'Next image' : 'Previous image'}
              </button>
            ) : null}
            <div className="lightbox-image-wrap">
              {load === 'loading' ? (
                <p className="lightbox-status" role="status">
                  Loading image…
                </p>
              ) : null}
              {load === 'error' ? (
                <div className="lightbox-status" role="alert">
                  <BrokenImageIcon />
                  <p>This image could not be loaded.</p>
                </div>
              ) : null}
              <img
                key={`${view.index}-${image.url}`}
                className={load === 'loaded' ? 'lightbox-image' : 'lightbox-image lightbox-image-pending'}
                src={image.url}
                alt={image.alt}
                data-zoom={view.zoom}
                data-rotation={view.rotation}
                style={{ transform: `scale(${view.zoom}) rotate(${view.rotation}deg)` }}
                onLoad={() => setLoad('loaded')}
                onError={() => setLoad('error')}
                draggable={false}
              />
            </div>
            {count > 1 ? (
              <button
                type="button"
                className="lightbox-nav"
                onClick={() => go(forward)}
                disabled={!canStep(view.index, forward, count, loop)}
              >
                {rtl ? 'Previous image' : 'Next image'}
              </button>
            ) : null}
          </div>
          <p className="lightbox-zoom">
            Zoom {Math.round(view.zoom * 100)}% · rotated {view.rotation}°
          </p>
        </div>
      ) : null}
    </dialog>
  );
}
