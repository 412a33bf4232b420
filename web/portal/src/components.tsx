import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Page } from '@claims/ui/components';
import { Link } from '@tanstack/react-router';
import { CLAIM_TYPE_FLAGS, ITEM_ISSUE_LABELS, SHIPMENT_ISSUE_LABELS, type ClaimType, type ImageRef, type UploadProof } from '@claims/contracts';
import { ACCEPT_ATTRIBUTE, checkFile, uploadMedia, type UploadedMedia } from './upload.js';

export function BackLink({ to, children = 'Go Back' }: { to: string; children?: ReactNode }) {
  return <Link to={to} className="button button-secondary">{children}</Link>;
}

/** The end of a flow step's form: its error, if any, then Go Back and Continue. */
export function StepFooter({ error, back }: { error: string | null; back: string }) {
  return (
    <>
      {error ? <Alert>{error}</Alert> : null}
      <div className="actions">
        <BackLink to={back} />
        <button type="submit" className="button button-primary">Continue</button>
      </div>
    </>
  );
}

/**
 * A flow step's form: Continue shows `problem` (what is still missing, null when nothing is) or goes on to `next`;
 * the error is cleared by the next try only.
 */
export function useStepForm(problem: string | null, next: () => void) {
  const [error, setError] = useState<string | null>(null);
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(problem);
    if (!problem) next();
  }
  return { error, onSubmit };
}

/** A flow step opened before the one it needs: what is missing, and the way back to where it is given. */
export function StepNeeds({ title, subtitle, missing, back }: { title: string; subtitle?: string; missing: string; back: string }) {
  return (
    <Page title={title} subtitle={subtitle}>
      <Alert>{missing}</Alert>
      <BackLink to={back} />
    </Page>
  );
}

export function ItemThumb({ src, name }: { src: string | undefined; name: string }) {
  return src ? <img className="thumb" src={src} alt="" width={56} height={56} /> : <span className="thumb thumb-empty" aria-hidden="true">{name.slice(0, 1)}</span>;
}

interface PhotoState {
  id: string;
  name: string;
  progress: number;
  error: string | null;
  done: UploadedMedia | null;
}

/** Photos for an issue or message: checks, uploads with progress, announces spec §8 errors. */
export function PhotoUpload({ label, proof, value, onChange, onUploaded }: {
  label: string;
  /** The looked-up order or the claim the photos are for: the server asks for it. */
  proof: UploadProof;
  value: ImageRef[];
  onChange: (images: ImageRef[]) => void;
  onUploaded?: (media: UploadedMedia) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  const [uploads, setUploads] = useState<PhotoState[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const valueRef = useRef(value);
  valueRef.current = value;

  async function onFiles(files: FileList | null) {
    if (!files) return;
    setProblem(null);
    for (const file of Array.from(files)) {
      const refused = checkFile(file);
      if (refused) {
        setProblem(refused);
        continue;
      }
      const id = `${file.name}-${Date.now()}-${Math.random()}`;
      setUploads((u) => [...u, { id, name: file.name, progress: 0, error: null, done: null }]);
      try {
        const done = await uploadMedia(file, proof, (progress) => setUploads((u) => u.map((x) => (x.id === id ? { ...x, progress } : x))));
        setUploads((u) => u.filter((x) => x.id !== id));
        onUploaded?.(done);
        onChange([...valueRef.current, { url: done.url }]);
      } catch (error) {
        const message = error instanceof Error ? error.message : 'Failed to upload image';
        setUploads((u) => u.map((x) => (x.id === id ? { ...x, error: message } : x)));
      }
    }
  }

  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <p id={hintId} className="hint">Photos or videos, up to 25 MB each.</p>
      <input
        id={inputId}
        type="file"
        accept={ACCEPT_ATTRIBUTE}
        multiple
        aria-describedby={hintId}
        onChange={(e) => {
          void onFiles(e.currentTarget.files);
          e.currentTarget.value = '';
        }}
      />
      {problem ? <Alert>{problem}</Alert> : null}
      <ul className="uploads" aria-label="Uploads">
        {uploads.map((u) => (
          <li key={u.id}>
            <span>{u.name}</span>
            {u.error ? <Alert>{u.error}</Alert> : <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />}
          </li>
        ))}
      </ul>
      {value.length > 0 ? (
        <ul className="photos" aria-label="Uploaded photos">
          {value.map((image, index) => (
            <li key={image.url}>
              <img src={image.url} alt={`Uploaded photo ${index + 1}`} width={72} height={72} />
              <button type="button" className="button button-link" onClick={() => onChange(value.filter((x) => x.url !== image.url))}>
                Remove<span className="visually-hidden"> photo {index + 1}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const ISSUE_LABELS: Record<string, string> = { ...SHIPMENT_ISSUE_LABELS, ...ITEM_ISSUE_LABELS };

/** The shopper-facing label of an issue or claim type (humanised code when it has none). */
export function issueLabel(code: ClaimType | string | null | undefined): string {
  if (!code) return '';
  if (ISSUE_LABELS[code]) return ISSUE_LABELS[code];
  const known = Object.hasOwn(CLAIM_TYPE_FLAGS, code);
  const words = code.toLowerCase().replace(/_/g, ' ');
  return known ? `${words[0]?.toUpperCase() ?? ''}${words.slice(1)}` : code;
}
