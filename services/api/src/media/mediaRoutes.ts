import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { ACCEPTED_MEDIA, ApiError, MAX_UPLOAD_BYTES, UploadUrlRequest, UploadUrlResponse, type AcceptedExtension } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { contentMatchesExtension } from './magicBytes.js';
import { DiskMediaStorage, type MediaStorage } from './mediaStorage.js';

/** How long a signed upload URL stays valid. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.([a-z0-9]{2,5})$/;
const KeyParams = z.object({ key: z.string().regex(KEY, 'a media key') });
const UploadQuery = z.object({ expires: z.coerce.number().int().positive(), signature: z.string().min(1).max(200) });

const isAccepted = (ext: string): ext is AcceptedExtension => Object.hasOwn(ACCEPTED_MEDIA, ext);
const extensionOf = (name: string): string => path.extname(name).slice(1).toLowerCase();
const unsupported = () => new AppError('unsupported_media_type',
  `Only photos and videos can be uploaded (${Object.keys(ACCEPTED_MEDIA).join(', ')}).`);

/** The signing key survives restarts (kept beside the files), so issued URLs stay valid until they expire. */
async function loadSigningKey(dir: string): Promise<Buffer> {
  const file = path.join(dir, '.signing-key');
  await fs.mkdir(dir, { recursive: true });
  try {
    const existing = await fs.readFile(file);
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const fresh = randomBytes(32);
  try {
    await fs.writeFile(file, fresh, { flag: 'wx', mode: 0o600 });
    return fresh;
  } catch {
    return fs.readFile(file);
  }
}

const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

export interface MediaRoutesOptions {
  storage?: MediaStorage;
}

/**
 * Spec §7 media upload: `POST /api/media/upload-url` hands out an HMAC-signed, expiring URL for
 * one upload; `PUT` of the raw file to it stores the file once its content fits its extension;
 * `GET` of the download link serves it.
 */
export const mediaRoutes = (ctx: AppContext, options: MediaRoutesOptions = {}): FastifyPluginAsyncZod => async (app) => {
  const dir = path.join(ctx.config.dataDir, 'media');
  const storage = options.storage ?? new DiskMediaStorage(dir);
  const signingKey = await loadSigningKey(dir);
  const sign = (key: string, expires: number) => createHmac('sha256', signingKey).update(`PUT\n${key}\n${expires}`).digest('base64url');
  const signatureValid = (key: string, expires: number, given: string) => {
    const expected = Buffer.from(sign(key, expires));
    const actual = Buffer.from(given);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  };

  app.post('/api/media/upload-url', {
    schema: {
      tags: ['customer'], summary: 'A signed URL to upload one claim photo or video to',
      body: UploadUrlRequest, response: { 200: UploadUrlResponse, 400: ApiError, 415: ApiError },
    },
  }, async (request) => {
    const ext = extensionOf(request.body.filename);
    if (!isAccepted(ext)) throw unsupported();
    const announced = request.body.contentType.toLowerCase().split(';')[0]!.trim();
    const family = ACCEPTED_MEDIA[ext].split('/')[0];
    if (announced !== ACCEPTED_MEDIA[ext] && !(announced === 'image/jpg' && family === 'image') && announced !== 'application/octet-stream') {
      throw new AppError('unsupported_media_type', `A .${ext} file is sent as ${ACCEPTED_MEDIA[ext]}, not ${announced}.`);
    }
    const key = `${randomUUID()}.${ext}`;
    const expires = Math.floor(Date.parse(ctx.now()) / 1000) + UPLOAD_URL_TTL_SECONDS;
    const origin = originOf(request);
    const fileUrl = `${origin}/api/media/files/${key}`;
    return {
      signedUrl: `${origin}/api/media/upload/${key}?expires=${expires}&signature=${sign(key, expires)}`,
      fileName: key,
      downloadLink: fileUrl,
      publicUrl: fileUrl,
    };
  });

  await app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));

    uploads.withTypeProvider<ZodTypeProvider>().put('/api/media/upload/:key', {
      bodyLimit: MAX_UPLOAD_BYTES,
      schema: {
        tags: ['customer'], summary: 'Upload the raw file to a signed URL (one upload per URL)',
        params: KeyParams, querystring: UploadQuery,
        response: { 201: z.object({ fileName: z.string(), downloadLink: z.string(), size: z.number() }), 400: ApiError, 403: ApiError, 410: ApiError, 413: ApiError, 415: ApiError },
      },
    }, async (request, reply) => {
      const { key } = request.params;
      const { expires, signature } = request.query;
      if (!signatureValid(key, expires, signature)) throw new AppError('forbidden', 'This upload link is not valid.');
      if (Date.parse(ctx.now()) / 1000 > expires) throw new AppError('upload_expired', 'This upload link has expired. Please try the upload again.');
      const body: unknown = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError('validation_failed', 'The upload is empty.');
      const ext = KEY.exec(key)![1]!;
      if (!isAccepted(ext) || !contentMatchesExtension(body, ext)) {
        throw new AppError('unsupported_media_type', `The file's content is not a .${ext} file.`);
      }
      if (!(await storage.putNew(key, body))) throw new AppError('upload_expired', 'This upload link has already been used.');
      request.log.info({ key, size: body.length }, 'media uploaded');
      return reply.code(201).send({ fileName: key, downloadLink: `${originOf(request)}/api/media/files/${key}`, size: body.length });
    });
  });

  app.get('/api/media/files/:key', {
    schema: { tags: ['customer'], summary: 'An uploaded file', params: KeyParams },
  }, async (request, reply) => {
    const { key } = request.params;
    const ext = KEY.exec(key)![1]!;
    const data = isAccepted(ext) ? await storage.get(key) : null;
    if (!data || !isAccepted(ext)) throw new AppError('not_found', 'No file matches that link.');
    return reply
      .header('content-type', ACCEPTED_MEDIA[ext])
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('content-disposition', `inline; filename="${key}"`)
      .send(data);
  });
};
