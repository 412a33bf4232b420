import { z } from 'zod';
import { MediaType } from './enums.js';

/** Accepted photo and video extensions, with the content types they arrive as (docs/product.md#photos-and-videos). */
export const ACCEPTED_MEDIA = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  heic: 'image/heic',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
} as const;
export type AcceptedExtension = keyof typeof ACCEPTED_MEDIA;

/** Largest upload accepted (decision: 25 MB covers a phone video clip of ~15 s). */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

export const ImageRef = z.object({ url: z.string().min(1).max(2048) });
export type ImageRef = z.infer<typeof ImageRef>;

/** Media attached to a message (docs/product.md#claim-records). */
export const Media = z.object({
  caption: z.string().max(200).optional(),
  downloadLink: z.string().max(2048),
  fileKey: z.string().max(300),
  fileType: z.string().max(100),
  filename: z.string().max(255),
});
export type Media = z.infer<typeof Media>;

/** Decided: what one looked-up order or one claim may upload in all (URLs handed out, bytes stored). */
export const UPLOAD_QUOTA = { files: 40, bytes: 250 * 1024 * 1024 } as const;

/**
 * Contract: the file's description plus the proof of a looked-up order (`orderId`, its
 * `systemOrderId`, and the order's `email`) or of a claim (`claimToken`); without a valid one, 404.
 */
export const UploadUrlRequest = z.object({
  contentType: z.string().min(1).max(100),
  filename: z.string().trim().min(1).max(255),
  mediaType: MediaType,
  orderId: z.string().max(100).optional(),
  email: z.string().max(320).optional(),
  claimToken: z.string().max(100).optional(),
});
export type UploadUrlRequest = z.infer<typeof UploadUrlRequest>;

/** What a portal page proves when it asks for an upload URL. */
export type UploadProof = { orderId: string; email: string } | { claimToken: string };

export const UploadUrlResponse = z.object({
  signedUrl: z.string(),
  fileName: z.string(),
  downloadLink: z.string(),
  publicUrl: z.string(),
});
export type UploadUrlResponse = z.infer<typeof UploadUrlResponse>;

/**
 * `POST /api/admin/claims/{claimId}/upload-url`: an agent's attachment to a message on a claim (`message:create`
 * on its store); the same types, size and per-claim quota as a shopper's upload.
 */
export const AgentUploadUrlRequest = UploadUrlRequest.pick({ contentType: true, filename: true });
export type AgentUploadUrlRequest = z.infer<typeof AgentUploadUrlRequest>;
