import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { Media } from '@claims/contracts';
import type { AppContext } from '../context.js';
import { ownOrigin } from '../auth/origin.js';
import { AppError } from '../platform/errors.js';
import { mediaKeyOf } from './mediaKeys.js';
import type { UploadOwner } from './mediaUploads.js';

const FILES_PATH = '/api/media/files/';

/**
 * A message's attachments are shown to agents and shoppers as links: each must be a file this product issued through
 * an upload URL to one of `owners` (the claim, or the order it was filed from), linked on this server's own origin or
 * `PUBLIC_URL`. Anything else (another site, a `javascript:` link, another claim's file) is refused at the edge (400).
 */
export async function assertOwnAttachments(ctx: AppContext, request: FastifyRequest, medias: readonly Media[], owners: readonly UploadOwner[]): Promise<void> {
  if (medias.length === 0) return;
  const own = ownOrigin(request);
  const origins = new Set([own, new URL(ctx.config.publicUrl).origin]);
  const keys = medias.map((media) => {
    let url: URL;
    try {
      url = new URL(media.downloadLink, own ?? ctx.config.publicUrl);
    } catch {
      return null;
    }
    const key = url.pathname.startsWith(FILES_PATH) && origins.has(url.origin) ? mediaKeyOf(url.pathname) : null;
    return key !== null && url.pathname === `${FILES_PATH}${key}` && media.fileKey === key ? key : null;
  });
  const { rows } = await sql<{ key: string }>`
    select key from media_uploads where key = any(${keys.filter((k) => k !== null)}::text[]) and owner = any(${[...owners]}::text[])`
    .execute(ctx.database.db);
  const issued = new Set(rows.map((r) => r.key));
  const refused = keys.flatMap((key, i) => (key !== null && issued.has(key) ? [] : [i]));
  if (refused.length > 0) {
    throw new AppError('validation_failed', 'Attachments must be files uploaded to this claim through its upload link.',
      refused.map((i) => ({ path: `medias.${i}.downloadLink`, message: 'not a file uploaded to this claim' })));
  }
}
