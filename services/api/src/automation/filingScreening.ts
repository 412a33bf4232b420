import type { FileClaimRequest, FilingScreening, Order, Store } from '@claims/contracts';
import { storeUsualClaim } from '@claims/projections';
import type { AppContext } from '../context.js';
import { mediaKeyOf, uploadsWithSameContent } from '../media/index.js';
import { shopperClaimCounts } from './shopperHistory.js';
import { shopperKeyOf } from './shopperKey.js';

const HISTORY_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * Photos of a filing whose bytes were uploaded for another order or claim: an upload for this very order (the
 * shopper's own retry) is not reuse.
 */
async function reusedPhotoCount(ctx: AppContext, order: Order, request: FileClaimRequest): Promise<number> {
  const keys = request.fulfillmentIssues.flatMap((f) =>
    f.issues.flatMap((i) => i.images.flatMap((image) => mediaKeyOf(image.url) ?? [])),
  );
  const twins = await uploadsWithSameContent(ctx.database.db, keys);
  return new Set(twins.filter((t) => t.owner !== `order:${order.id}`).map((t) => t.sameAs)).size;
}

/**
 * What filing looks up for the claim's risk before it is decided: the shopper's claims of the last 90 days by the
 * keyed hash of their email (from the event store, so one committed a moment ago counts), photos reused from
 * elsewhere, and the store's usual claim (the risk read model: a moment behind changes a median little).
 */
export async function screenFiling(
  ctx: AppContext,
  order: Order,
  store: Store,
  request: FileClaimRequest,
): Promise<FilingScreening> {
  const shopperKey = await shopperKeyOf(ctx, order.customerEmail);
  const since = new Date(Date.parse(ctx.now()) - HISTORY_DAYS * DAY_MS).toISOString();
  const [history, reusedPhotos, usual] = await Promise.all([
    shopperClaimCounts(ctx.database.db, shopperKey, order.storeId, since),
    reusedPhotoCount(ctx, order, request),
    storeUsualClaim(ctx.database.db, order.storeId, store.currency),
  ]);
  return {
    shopperKey,
    shopperClaims90d: history.here,
    shopperClaimsElsewhere90d: history.elsewhere,
    reusedPhotos,
    storeCurrency: store.currency,
    storeUsualClaim: usual,
  };
}
