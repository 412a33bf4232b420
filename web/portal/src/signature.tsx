import { forwardRef, useEffect, useId, useImperativeHandle, useRef, useState, type PointerEvent } from 'react';
import type { Signature } from '@claims/contracts';

export interface SignatureHandle {
  /** The signature to submit, or an error message for the shopper. */
  read(): { signature: Signature } | { error: string };
}

const MAX_DATA_URL = 200_000;
/** A drawing shorter than this (in CSS pixels of ink) is a slip, not a signature. */
const MIN_INK = 40;

/**
 * The 'collect signature' modal (docs/product.md#portal-screens): a drawn signature (canvas, pointer events: mouse, touch and pen) or, for
 * keyboards and screen readers, the typed full name. Typing is the default; drawing is never the only way.
 */
export const SignatureField = forwardRef<
  SignatureHandle,
  { initial: Signature | null | undefined; error?: string | undefined }
>(function SignatureField({ initial, error }, ref) {
  const [mode, setMode] = useState<'typed' | 'drawn'>(initial?.kind === 'drawn' ? 'drawn' : 'typed');
  const [name, setName] = useState(initial?.kind === 'typed' ? initial.value : '');
  const [ink, setInk] = useState(0);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const last = useRef<{ x: number; y: number } | null>(null);
  const nameId = useId();
  const drawHelpId = useId();
  const errorId = useId();

  // Size the canvas to its box (sharp on high-density screens) whenever drawing starts.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (mode !== 'drawn' || !canvas) return;
    const ratio = Math.min(2, window.devicePixelRatio || 1);
    const { width, height } = canvas.getBoundingClientRect();
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const context = canvas.getContext('2d');
    if (!context) return;
    context.scale(ratio, ratio);
    context.lineWidth = 2.5;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = '#111827';
    setInk(0);
  }, [mode]);

  const point = (event: PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  function onPointerDown(event: PointerEvent<HTMLCanvasElement>) {
    event.currentTarget.setPointerCapture(event.pointerId);
    last.current = point(event);
  }

  function onPointerMove(event: PointerEvent<HTMLCanvasElement>) {
    const from = last.current;
    const context = event.currentTarget.getContext('2d');
    if (!from || !context) return;
    const to = point(event);
    context.beginPath();
    context.moveTo(from.x, from.y);
    context.lineTo(to.x, to.y);
    context.stroke();
    setInk((n) => n + Math.hypot(to.x - from.x, to.y - from.y));
    last.current = to;
  }

  const onPointerUp = () => {
    last.current = null;
  };

  function clear() {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (canvas && context) context.clearRect(0, 0, canvas.width, canvas.height);
    setInk(0);
  }

  useImperativeHandle(
    ref,
    () => ({
      read() {
        const signedAt = new Date().toISOString();
        if (mode === 'typed') {
          return name.trim()
            ? { signature: { kind: 'typed', value: name.trim(), signedAt } }
            : { error: 'Please sign your claim by typing your full name.' };
        }
        const canvas = canvasRef.current;
        if (!canvas || ink < MIN_INK) return { error: 'Please draw your signature, or type your name instead.' };
        const value = canvas.toDataURL('image/png');
        if (value.length > MAX_DATA_URL)
          return {
            error: 'Your signature is too detailed to save. Please clear it and sign again, or type your name.',
          };
        return { signature: { kind: 'drawn', value, signedAt } };
      },
    }),
    [mode, name, ink],
  );

  return (
    <div className="stack">
      <fieldset className="field">
        <legend>How would you like to sign?</legend>
        <div className="rating">
          <label className="choice choice-compact">
            <input type="radio" name="signature-mode" checked={mode === 'typed'} onChange={() => setMode('typed')} />
            <span>Type my name</span>
          </label>
          <label className="choice choice-compact">
            <input type="radio" name="signature-mode" checked={mode === 'drawn'} onChange={() => setMode('drawn')} />
            <span>Draw my signature</span>
          </label>
        </div>
      </fieldset>
      {mode === 'typed' ? (
        <div className="field">
          <label htmlFor={nameId}>Type your full name to sign</label>
          <input
            id={nameId}
            type="text"
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={200}
            className="signature-typed"
            aria-invalid={Boolean(error)}
            aria-describedby={error ? errorId : undefined}
          />
        </div>
      ) : (
        <div className="field">
          <p id={drawHelpId} className="hint">
            Sign in the box with your mouse, finger or pen. Prefer the keyboard? Choose “Type my name”.
          </p>
          <canvas
            ref={canvasRef}
            className="signature-pad"
            role="img"
            aria-label={ink >= MIN_INK ? 'Your drawn signature' : 'Signature area, empty'}
            aria-describedby={drawHelpId}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
          />
          <button type="button" className="button button-link" onClick={clear}>
            Clear signature
          </button>
        </div>
      )}
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
});
