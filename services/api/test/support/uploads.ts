import type { Readable } from 'node:stream';
import type { Runtime } from '../../src/index.js';
import { pathOf } from './pgliteRuntime.js';

/** A 1×1 PNG: the smallest file the upload's content check takes as an image. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The file PUT to a signed upload URL as a browser sends it, with `contentType` as its header (none when null). */
export const putUpload = (
  runtime: Runtime,
  signed: { signedUrl: string },
  payload: Buffer | Readable,
  contentType: string | null = 'image/png',
) =>
  runtime.app.inject({
    method: 'PUT',
    url: pathOf(signed.signedUrl),
    payload,
    ...(contentType ? { headers: { 'content-type': contentType } } : {}),
  });
