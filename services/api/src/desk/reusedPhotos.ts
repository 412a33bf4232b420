import type { Claim, Message, ReusedPhoto } from '@claims/contracts';
import { claimsOfOrders } from '@claims/projections';
import type { AppContext } from '../context.js';
import { loadClaim } from '../http/authorizedClaim.js';
import { messagesOf } from '../http/claimEvents.js';
import { mediaKeyOf, uploadsWithSameContent } from '../media/index.js';

/** Every stored photo of a claim (its items' photos and its messages' attachments) by key, with the URL shown for it. */
function photosOf(claim: Pick<Claim, 'items'>, messages: readonly Message[]): Map<string, string> {
  const photos = new Map<string, string>();
  for (const item of claim.items) {
    for (const image of item.images) {
      const key = mediaKeyOf(image.url);
      if (key) photos.set(key, image.url);
    }
  }
  for (const message of messages) {
    for (const media of message.medias) {
      const key = mediaKeyOf(media.downloadLink) ?? mediaKeyOf(`/api/media/files/${media.fileKey}`);
      if (key) photos.set(key, media.downloadLink);
    }
  }
  return photos;
}

/**
 * The photos of a claim whose bytes (SHA-256 at upload) are a photo of another claim the caller may read. An
 * upload is charged to a claim or to the looked-up order it was filed from, so an order's candidates are its
 * claims, each checked for actually holding the file.
 */
export async function reusedPhotos(
  ctx: AppContext,
  loaded: { state: Claim; events: ReadonlyArray<{ type: string; data: unknown }> },
  mayRead: (storeId: string) => boolean,
): Promise<ReusedPhoto[]> {
  const mine = photosOf(loaded.state, messagesOf(loaded.events));
  const twins = await uploadsWithSameContent(ctx.database.db, [...mine.keys()]);
  if (twins.length === 0) return [];
  const claimIds = new Set(
    twins.flatMap((t) => (t.owner.startsWith('claim:') ? [t.owner.slice('claim:'.length)] : [])),
  );
  const orderIds = twins.flatMap((t) => (t.owner.startsWith('order:') ? [t.owner.slice('order:'.length)] : []));
  for (const row of await claimsOfOrders(ctx.database.db, orderIds)) claimIds.add(row.claim_id);
  claimIds.delete(loaded.state.id);
  const found: ReusedPhoto[] = [];
  for (const claimId of claimIds) {
    const other = await loadClaim(ctx, claimId);
    if (!other || !mayRead(other.state.storeId)) continue;
    const theirs = photosOf(other.state, messagesOf(other.events));
    for (const twin of twins) {
      if (!theirs.has(twin.key)) continue;
      found.push({
        url: mine.get(twin.sameAs)!,
        otherClaimId: other.state.id,
        otherClaimNumber: other.state.claimNumber,
      });
    }
  }
  return found;
}
