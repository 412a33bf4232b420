import {
  ACCEPTED_MEDIA,
  MAX_UPLOAD_BYTES,
  UploadUrlResponse,
  type AcceptedExtension,
  type Media,
} from '@claims/contracts';
import { request } from '@claims/ui/http';

/** What the file picker offers: the types the server accepts. */
export const ACCEPT_ATTRIBUTE = Object.keys(ACCEPTED_MEDIA)
  .map((ext) => `.${ext}`)
  .join(',');
/** A message carries at most this many files (SendMessageRequest). */
export const MAX_ATTACHMENTS = 10;

const isAccepted = (ext: string): ext is AcceptedExtension => Object.hasOwn(ACCEPTED_MEDIA, ext);
const extensionOf = (name: string) => (name.split('.').pop() ?? '').toLowerCase();

/** A file the server would refuse, said before anything is sent; null when it may be sent. */
export function attachmentProblem(file: File): string | null {
  if (!isAccepted(extensionOf(file.name)))
    return `${file.name} can't be attached. Use a photo or video (${Object.keys(ACCEPTED_MEDIA).join(', ')}).`;
  if (file.size > MAX_UPLOAD_BYTES)
    return `${file.name} is larger than ${Math.round(MAX_UPLOAD_BYTES / 1024 / 1024)} MB.`;
  if (file.size === 0) return `${file.name} is empty.`;
  return null;
}

/** Uploads one attachment of an agent's message: a signed URL for this claim (message:create), then the raw file. */
export async function uploadAttachment(claimId: string, file: File): Promise<Media> {
  const ext = extensionOf(file.name);
  const contentType = isAccepted(ext) ? ACCEPTED_MEDIA[ext] : file.type;
  const signed = await request('POST', `admin/claims/${encodeURIComponent(claimId)}/upload-url`, {
    body: { contentType, filename: file.name },
    schema: UploadUrlResponse,
  });
  const put = await fetch(signed.signedUrl, { method: 'PUT', headers: { 'content-type': contentType }, body: file });
  if (!put.ok) throw new Error(`${file.name} could not be uploaded. Try again.`);
  return { downloadLink: signed.downloadLink, fileKey: signed.fileName, fileType: contentType, filename: file.name };
}

/** Whether an attachment can be shown as a picture (a video opens as a link). */
export const isImage = (media: Media) => media.fileType.startsWith('image/');
