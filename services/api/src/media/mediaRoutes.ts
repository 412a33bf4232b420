import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  ACCEPTED_MEDIA,
  AgentUploadUrlRequest,
  ApiError,
  MAX_UPLOAD_BYTES,
  UPLOAD_QUOTA,
  UploadUrlRequest,
  UploadUrlResponse,
  type AcceptedExtension,
} from '@claims/contracts';
import type { AppContext } from '../context.js';
import { findOrderById } from '../catalog/orderRepository.js';
import { openClaimLink } from '../http/claimLinks.js';
import { authorizedClaim } from '../http/authorizedClaim.js';
import { AppError } from '../platform/errors.js';
import { contentMatchesExtension } from './magicBytes.js';
import { DiskMediaStorage, mediaDirOf, type MediaStorage } from './mediaStorage.js';
import {
  bytesLeftFor,
  forgetUpload,
  orphanedUploads,
  recordIssuedUpload,
  recordStoredUpload,
  type UploadOwner,
} from './mediaUploads.js';

/** How long a signed upload URL stays valid. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.([a-z0-9]{2,5})$/;
const KeyParams = z.object({ key: z.string().regex(KEY, 'a media key') });
const UploadQuery = z.object({ expires: z.coerce.number().int().positive(), signature: z.string().min(1).max(200) });

const isAccepted = (ext: string): ext is AcceptedExtension => Object.hasOwn(ACCEPTED_MEDIA, ext);
const extensionOf = (name: string): string => path.extname(name).slice(1).toLowerCase();
const unsupported = () =>
  new AppError(
    'unsupported_media_type',
    `Only photos and videos can be uploaded (${Object.keys(ACCEPTED_MEDIA).join(', ')}).`,
  );

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const noProof = () => new AppError('not_found', 'No order or claim matches that reference. Look up your order again.');
const quotaUsed = (headers?: Record<string, string>) =>
  new AppError(
    'upload_quota_exceeded',
    `This claim already has the most files it can hold (${UPLOAD_QUOTA.files} files, ${UPLOAD_QUOTA.bytes / 1024 / 1024} MB in all).`,
    undefined,
    headers,
  );

/**
 * Contract: an upload URL is handed out only against the proof of a looked-up order (its id and
 * email, case-insensitively) or of a claim (its token); anything else is the same 404.
 */
async function uploadOwner(ctx: AppContext, proof: UploadUrlRequest): Promise<UploadOwner> {
  if (proof.claimToken !== undefined) {
    // Any of the claim's links: the one shown after filing or one mailed since.
    const loaded = await openClaimLink(ctx, proof.claimToken);
    if (!loaded) throw noProof();
    return `claim:${loaded.state.id}`;
  }
  if (proof.orderId === undefined || proof.email === undefined || !UUID.test(proof.orderId)) throw noProof();
  const order = await findOrderById(ctx.database.db, proof.orderId);
  if (!order || order.customerEmail.trim().toLowerCase() !== proof.email.trim().toLowerCase()) throw noProof();
  return `order:${order.id}`;
}

/** Deletes uploads no claim or draft referenced within a day, and partial files left behind; returns how many files. */
export async function sweepOrphanedMedia(
  ctx: AppContext,
  now: string,
  storage: MediaStorage = diskStorage(ctx),
): Promise<number> {
  const orphans = await orphanedUploads(ctx.database.db, now);
  for (const key of orphans) {
    await storage.remove(key);
    await forgetUpload(ctx.database.db, key);
  }
  const partials = await storage.removeStalePartials(new Date(Date.parse(now) - 24 * 3600_000));
  if (orphans.length + partials > 0) ctx.log.info({ orphans: orphans.length, partials }, 'orphaned uploads deleted');
  return orphans.length + partials;
}

const mediaDir = (ctx: AppContext) => mediaDirOf(ctx.config.dataDir);
const diskStorage = (ctx: AppContext) => new DiskMediaStorage(mediaDir(ctx));

export interface MediaRoutesOptions {
  storage?: MediaStorage;
}

const tooLarge = () =>
  new AppError('payload_too_large', `A file may be at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`, undefined, {
    connection: 'close',
  });

/**
 * Media upload (docs/product.md#http-client): `POST /api/media/upload-url` hands out an HMAC-signed, expiring URL for
 * one upload to a shopper who proves an order or a claim (rate-limited per IP, quota per order or
 * claim); `PUT` of the raw file to it streams the file to disk, never whole in memory, and keeps it
 * once its content fits its extension; `GET` of the download link streams it back.
 */
export const mediaRoutes =
  (ctx: AppContext, options: MediaRoutesOptions = {}): FastifyPluginAsyncZod =>
  async (app) => {
    const dir = mediaDir(ctx);
    const storage = options.storage ?? diskStorage(ctx);
    const signingKey = await loadSigningKey(dir);
    const sign = (key: string, expires: number) =>
      createHmac('sha256', signingKey).update(`PUT\n${key}\n${expires}`).digest('base64url');
    const signatureValid = (key: string, expires: number, given: string) => {
      const expected = Buffer.from(sign(key, expires));
      const actual = Buffer.from(given);
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    };

    /** A signed URL for one file of an accepted type, counted against its owner's quota. */
    async function issueUpload(
      owner: UploadOwner,
      file: AgentUploadUrlRequest,
      origin: string,
    ): Promise<UploadUrlResponse> {
      const ext = extensionOf(file.filename);
      if (!isAccepted(ext)) throw unsupported();
      const announced = file.contentType.toLowerCase().split(';')[0]!.trim();
      const family = ACCEPTED_MEDIA[ext].split('/')[0];
      if (
        announced !== ACCEPTED_MEDIA[ext] &&
        !(announced === 'image/jpg' && family === 'image') &&
        announced !== 'application/octet-stream'
      ) {
        throw new AppError(
          'unsupported_media_type',
          `A .${ext} file is sent as ${ACCEPTED_MEDIA[ext]}, not ${announced}.`,
        );
      }
      const key = `${randomUUID()}.${ext}`;
      if (!(await recordIssuedUpload(ctx.database.db, key, owner, ctx.now()))) throw quotaUsed();
      const expires = Math.floor(Date.parse(ctx.now()) / 1000) + UPLOAD_URL_TTL_SECONDS;
      const fileUrl = `${origin}/api/media/files/${key}`;
      return {
        signedUrl: `${origin}/api/media/upload/${key}?expires=${expires}&signature=${sign(key, expires)}`,
        fileName: key,
        downloadLink: fileUrl,
        publicUrl: fileUrl,
      };
    }

    app.post(
      '/api/media/upload-url',
      {
        schema: {
          tags: ['customer'],
          summary: 'A signed URL to upload one claim photo or video to (proof of an order or a claim required)',
          body: UploadUrlRequest,
          response: {
            200: UploadUrlResponse,
            400: ApiError,
            404: ApiError,
            415: ApiError,
            422: ApiError,
            429: ApiError,
          },
        },
      },
      async (request) => issueUpload(await uploadOwner(ctx, request.body), request.body, originOf(request)),
    );

    app.post(
      '/api/admin/claims/:claimId/upload-url',
      {
        config: { auth: 'user', permission: 'message:create' },
        schema: {
          tags: ['back-office'],
          summary: "A signed URL to upload one attachment of an agent's message on this claim (message:create)",
          params: z.object({ claimId: z.uuid() }),
          body: AgentUploadUrlRequest,
          response: {
            200: UploadUrlResponse,
            400: ApiError,
            401: ApiError,
            403: ApiError,
            404: ApiError,
            415: ApiError,
            422: ApiError,
          },
        },
      },
      async (request) => {
        const { state: claim } = await authorizedClaim(ctx, request, 'message:create', request.params.claimId);
        return issueUpload(`claim:${claim.id}`, request.body, originOf(request));
      },
    );

    await app.register(async (uploads) => {
      // The body is left unread here: the handler streams it to disk.
      uploads.removeAllContentTypeParsers();
      uploads.addContentTypeParser('*', (_request, _payload, done) => done(null));

      uploads.withTypeProvider<ZodTypeProvider>().put(
        '/api/media/upload/:key',
        {
          schema: {
            tags: ['customer'],
            summary: 'Upload the raw file to a signed URL (one upload per URL)',
            params: KeyParams,
            querystring: UploadQuery,
            response: {
              201: z.object({ fileName: z.string(), downloadLink: z.string(), size: z.number() }),
              400: ApiError,
              403: ApiError,
              410: ApiError,
              413: ApiError,
              415: ApiError,
              422: ApiError,
            },
          },
        },
        async (request, reply) => {
          const { key } = request.params;
          const { expires, signature } = request.query;
          if (!signatureValid(key, expires, signature))
            throw new AppError('forbidden', 'This upload link is not valid.');
          if (Date.parse(ctx.now()) / 1000 > expires)
            throw new AppError('upload_expired', 'This upload link has expired. Please try the upload again.');
          const declared = Number(request.headers['content-length'] ?? 0);
          if (declared > MAX_UPLOAD_BYTES) throw tooLarge();
          const left = await bytesLeftFor(ctx.database.db, key);
          if (left === null)
            throw new AppError('upload_expired', 'This upload link is no longer valid. Please try the upload again.');
          if (declared > left) throw quotaUsed();
          const ext = KEY.exec(key)![1]!;
          if (!isAccepted(ext)) throw unsupported();
          const result = await storage.putNew(key, request.raw, Math.min(MAX_UPLOAD_BYTES, left), (head) =>
            contentMatchesExtension(head, ext),
          );
          if (!result.stored) {
            switch (result.reason) {
              // The rest of the body is left unread: the answer closes the connection.
              case 'too_large':
                throw left < MAX_UPLOAD_BYTES ? quotaUsed({ connection: 'close' }) : tooLarge();
              case 'empty':
                throw new AppError('validation_failed', 'The upload is empty.');
              case 'wrong_content':
                throw new AppError('unsupported_media_type', `The file's content is not a .${ext} file.`);
              case 'taken':
                throw new AppError('upload_expired', 'This upload link has already been used.');
            }
          }
          if (!(await recordStoredUpload(ctx.database.db, key, result.size, result.sha256, ctx.now()))) {
            await storage.remove(key);
            throw quotaUsed();
          }
          request.log.info({ key, size: result.size }, 'media uploaded');
          return reply
            .code(201)
            .send({ fileName: key, downloadLink: `${originOf(request)}/api/media/files/${key}`, size: result.size });
        },
      );
    });

    app.get(
      '/api/media/files/:key',
      {
        schema: { tags: ['customer'], summary: 'An uploaded file', params: KeyParams },
      },
      async (request, reply) => {
        const { key } = request.params;
        const ext = KEY.exec(key)![1]!;
        const file = isAccepted(ext) ? await storage.open(key) : null;
        if (!file || !isAccepted(ext)) throw new AppError('not_found', 'No file matches that link.');
        return reply
          .header('content-type', ACCEPTED_MEDIA[ext])
          .header('content-length', file.size)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, max-age=31536000, immutable')
          .header('content-disposition', `inline; filename="${key}"`)
          .send(file.stream);
      },
    );
  };
