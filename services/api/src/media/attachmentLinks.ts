import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { FileClaimRequest, Media } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { ownOrigin } from '../http/origin.js';
import { AppError } from '../platform/errors.js';
import { mediaKeyOf } from './mediaKeys.js';
import type { UploadOwner } from './mediaUploads.js';

const FILES_PATH = '/api/media/files/';

interface Link {
  url: string;
  /** Where the link is in the body, for the 400's details. */
  path: string;
  /** The file the body says the link is (a message attachment's `fileKey`): it must be the same one. */
  key?: string;
}

/**
 * Links shown to agents and shoppers (a message's attachments, a claim's photos) point only at this product's own
 * media: each must be a file it issued an upload URL for to one of `owners` (the claim, or the order it is filed
 * from), linked as `/api/media/files/{key}` on this server's origin or `PUBLIC_URL`. Anything else (another site, a
 * `javascript:` link, another claim's file) is refused at the edge, 400, before anything is recorded.
 */
async function assertOwnMedia(
  ctx: AppContext,
  request: FastifyRequest,
  links: readonly Link[],
  owners: readonly UploadOwner[],
  what: string,
): Promise<void> {
  if (links.length === 0) return;
  const own = ownOrigin(request);
  const origins = new Set([own, new URL(ctx.config.publicUrl).origin]);
  const keys = links.map((link) => {
    let url: URL;
    try {
      url = new URL(link.url, own ?? ctx.config.publicUrl);
    } catch {
      return null;
    }
    const key = url.pathname.startsWith(FILES_PATH) && origins.has(url.origin) ? mediaKeyOf(url.pathname) : null;
    return key !== null && url.pathname === `${FILES_PATH}${key}` && (link.key === undefined || link.key === key)
      ? key
      : null;
  });
  const { rows } = await sql<{ key: string }>`
    select key from media_uploads where key = any(${keys.filter((k) => k !== null)}::text[]) and owner = any(${[...owners]}::text[])`.execute(
    ctx.database.db,
  );
  const issued = new Set(rows.map((r) => r.key));
  const refused = links.filter((_, i) => {
    const key = keys[i];
    return !key || !issued.has(key);
  });
  if (refused.length > 0) {
    throw new AppError(
      'validation_failed',
      `${what} must be files uploaded for this claim through its upload link.`,
      refused.map((link) => ({ path: link.path, message: 'not a file uploaded for this claim' })),
    );
  }
}

/** A message's attachments: files uploaded to the claim (or, for the shopper, to the order it was filed from). */
export const assertOwnAttachments = (
  ctx: AppContext,
  request: FastifyRequest,
  medias: readonly Media[],
  owners: readonly UploadOwner[],
) =>
  assertOwnMedia(
    ctx,
    request,
    medias.map((m, i) => ({ url: m.downloadLink, path: `medias.${i}.downloadLink`, key: m.fileKey })),
    owners,
    'Attachments',
  );

/** A filing's photos: files uploaded against the proof of the order being claimed. */
export const assertOwnPhotos = (ctx: AppContext, request: FastifyRequest, filing: FileClaimRequest, orderId: string) =>
  assertOwnMedia(
    ctx,
    request,
    filing.fulfillmentIssues.flatMap((f, i) =>
      f.issues.flatMap((issue, j) =>
        issue.images.map((image, k) => ({
          url: image.url,
          path: `fulfillmentIssues.${i}.issues.${j}.images.${k}.url`,
        })),
      ),
    ),
    [`order:${orderId}`],
    'Photos',
  );
