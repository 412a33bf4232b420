import { useId, useRef, useState } from 'react';
import { Alert } from '@claims/ui/components';
import type { ImageRef, UploadProof } from '@claims/contracts';
import { ACCEPT_ATTRIBUTE, checkFile, uploadMedia, type UploadedMedia } from './upload.js';

// Apart from components.tsx: the upload's media rules are schemas, built when this module runs, and the claim view's
// first screen has no upload (its message form loads after it).
interface PhotoState {
  id: string;
  name: string;
  progress: number;
  error: string | null;
  done: UploadedMedia | null;
}

/** Photos for an issue or message: checks, uploads with progress, announces the errors of docs/product.md#messages-the-shopper-reads. */
export function PhotoUpload({
  label,
  proof,
  value,
  onChange,
  onUploaded,
}: {
  label: string;
  /** The looked-up order or the claim the photos are for: the server asks for it. */
  proof: UploadProof;
  value: ImageRef[];
  onChange: (images: ImageRef[]) => void;
  onUploaded?: (media: UploadedMedia) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  const countId = useId();
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
        const done = await uploadMedia(file, proof, (progress) =>
          setUploads((u) => u.map((x) => (x.id === id ? { ...x, progress } : x))),
        );
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
      <p id={hintId} className="hint">
        Photos or videos, up to 25 MB each.
      </p>
      {/* The browser's own picker says "No file chosen" once a photo is uploaded (its value is cleared for the next
          pick), so it is hidden behind a button-like label and the count of photos says what was chosen. */}
      <div className="file-picker">
        <input
          id={inputId}
          className="file-input"
          type="file"
          accept={ACCEPT_ATTRIBUTE}
          multiple
          aria-describedby={`${hintId} ${countId}`}
          onChange={(e) => {
            void onFiles(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
        <label htmlFor={inputId} className="button button-secondary file-button" aria-hidden="true">
          {value.length > 0 ? 'Add more photos' : 'Choose photos'}
        </label>
        <span id={countId} className="hint" aria-live="polite">
          {value.length === 0
            ? 'No photos added yet.'
            : value.length === 1
              ? '1 photo added.'
              : `${value.length} photos added.`}
        </span>
      </div>
      {problem ? <Alert>{problem}</Alert> : null}
      <ul className="uploads" aria-label="Uploads">
        {uploads.map((u) => (
          <li key={u.id}>
            <span>{u.name}</span>
            {u.error ? (
              <Alert>{u.error}</Alert>
            ) : (
              <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />
            )}
          </li>
        ))}
      </ul>
      {value.length > 0 ? (
        <ul className="photos" aria-label="Uploaded photos">
          {value.map((image, index) => (
            <li key={image.url}>
              <img src={image.url} alt={`Uploaded photo ${index + 1}`} width={72} height={72} />
              <button
                type="button"
                className="button button-link"
                onClick={() => onChange(value.filter((x) => x.url !== image.url))}
              >
                Remove<span className="visually-hidden"> photo {index + 1}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
