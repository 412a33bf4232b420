import { ACCEPTED_MEDIA, MAX_UPLOAD_BYTES, type AcceptedExtension, type UploadProof } from '@claims/contracts';
import { api } from './api.js';

/** Media upload errors, word for word (docs/product.md#messages-the-shopper-reads). */
export const UPLOAD_ERRORS = {
  signedUrl: 'Failed to get signed url for image',
  noSignedUrl: 'Signed URL not found in the response',
  upload: 'Failed to upload image',
} as const;

export const ACCEPT_ATTRIBUTE = Object.keys(ACCEPTED_MEDIA)
  .map((ext) => `.${ext}`)
  .join(',');

const isAccepted = (ext: string): ext is AcceptedExtension => Object.hasOwn(ACCEPTED_MEDIA, ext);

/** A file the server would refuse, said before any upload starts; null when it may be sent. */
export function checkFile(file: File): string | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!isAccepted(ext))
    return `${file.name} can't be uploaded. Use a photo or video (${Object.keys(ACCEPTED_MEDIA).join(', ')}).`;
  if (file.size > MAX_UPLOAD_BYTES)
    return `${file.name} is larger than ${Math.round(MAX_UPLOAD_BYTES / 1024 / 1024)} MB.`;
  if (file.size === 0) return `${file.name} is empty.`;
  return null;
}

export interface UploadedMedia {
  url: string;
  downloadLink: string;
  fileName: string;
  contentType: string;
  originalName: string;
}

/**
 * Asks for a signed URL with the proof of the looked-up order (while filing) or of the claim (on
 * its page), then PUTs the raw file to it, reporting progress from 0 to 1.
 */
export async function uploadMedia(
  file: File,
  proof: UploadProof,
  onProgress: (fraction: number) => void,
): Promise<UploadedMedia> {
  const ext = (file.name.split('.').pop() ?? '').toLowerCase();
  const contentType = isAccepted(ext) ? ACCEPTED_MEDIA[ext] : file.type;
  let signed;
  try {
    signed = await api.uploadUrl({ contentType, filename: file.name, mediaType: 'CLAIM', ...proof });
  } catch {
    throw new Error(UPLOAD_ERRORS.signedUrl);
  }
  if (!signed.signedUrl) throw new Error(UPLOAD_ERRORS.noSignedUrl);
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', signed.signedUrl);
    xhr.setRequestHeader('content-type', contentType);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(UPLOAD_ERRORS.upload)));
    xhr.onerror = () => reject(new Error(UPLOAD_ERRORS.upload));
    xhr.ontimeout = () => reject(new Error(UPLOAD_ERRORS.upload));
    xhr.timeout = 120_000;
    xhr.send(file);
  });
  onProgress(1);
  return {
    url: signed.publicUrl,
    downloadLink: signed.downloadLink,
    fileName: signed.fileName,
    contentType,
    originalName: file.name,
  };
}
