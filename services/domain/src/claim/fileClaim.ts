import {
  SETTINGS_DEFAULTS,
  Signature,
  type ClaimItem,
  type ClaimType,
  type DomainEvent,
  type FileClaim,
  type Fulfillment,
  type Order,
  type StoreSettings,
} from '@claims/contracts';
import { fail, ok, type Result } from '../result.js';
import { fulfillmentEligibility } from '../eligibility/fulfillmentEligibility.js';
import { validQuantity } from '../eligibility/validQuantity.js';
import { fulfillmentFileable } from '../eligibility/fileable.js';
import { evolveOrderClaims, initialOrderClaimsState, type OrderClaimsState } from '../order-claims/orderClaimsState.js';
import type { Decider } from '../decider.js';
import { claimTypeOf, defaultCreditStore, isOffered } from './claimRules.js';
import { latestIssuePerItem } from './latestIssuePerItem.js';
import { assessRisk, riskFactsOf } from '../automation/riskAssessment.js';

export interface FileClaimContext {
  order: Order;
  settings: StoreSettings;
  orderClaims: OrderClaimsState;
}

/** The item issues a photo shows (a missing item has none to photograph). */
const PHOTOGRAPHABLE: readonly ClaimType[] = ['DAMAGED', 'DEFECTIVE_ITEM', 'WRONG_ITEM'];

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** An order is open to a one-time appeasement when unprotected, allowed by the store, and not used yet. */
export function oneTimeAppeasementAvailable(
  order: Pick<Order, 'protected'>,
  settings: StoreSettings,
  orderClaims: OrderClaimsState,
): boolean {
  return !order.protected && settings.allowOneTimeAppeasement && !orderClaims.claims.some((c) => c.isOta);
}

/**
 * Decides a shopper's claim against the order's claim ledger. Emits the ledger entry (which makes
 * two concurrent claims on the same items collide on the ledger's version) and the claim itself.
 */
export function decideFileClaim(command: FileClaim, context: FileClaimContext): Result<DomainEvent[]> {
  const { order, settings, orderClaims } = context;
  const { request } = command;
  if (!sameEmail(request.email, order.customerEmail)) {
    return fail('order_not_found', 'No order matches that order number and email address.');
  }
  const filing = settings.claimFiling ?? SETTINGS_DEFAULTS.claimFiling;
  if (!filing.acceptingClaims)
    return fail('not_eligible', 'This store is not taking claims online right now: please contact the store.');
  const isOta = !order.protected;
  if (isOta && !oneTimeAppeasementAvailable(order, settings, orderClaims)) {
    return fail('not_eligible', 'This order is not protected, so a claim cannot be filed for it.');
  }
  const method = request.resolution.desiredMethod;
  if (!isOffered(method, settings.capabilities)) {
    return fail(
      'unsupported_resolution',
      `This store does not offer ${method.toLowerCase().replace('_', ' ')} as a resolution.`,
    );
  }

  const items: ClaimItem[] = [];
  const shipments: Fulfillment[] = [];
  const seen = new Set<string>();
  let idIndex = 0;
  for (const group of request.fulfillmentIssues) {
    const fulfillment = order.fulfillments.find((f) => f.sourceFulfillmentId === group.sourceFulfillmentId);
    if (!fulfillment) return fail('unknown_item', `Shipment ${group.sourceFulfillmentId} is not part of this order.`);
    const eligibility = fulfillmentEligibility(fulfillment, order, settings, orderClaims.claimedItemIds, command.now);
    if (!fulfillmentFileable(eligibility, isOta)) {
      return fail(
        eligibility.eligibilityCode === 'already_claimed' ? 'already_claimed' : 'not_eligible',
        `Shipment ${group.sourceFulfillmentId} cannot be claimed (${eligibility.eligibilityCode}).`,
      );
    }
    if (!shipments.includes(fulfillment)) shipments.push(fulfillment);
    for (const issue of latestIssuePerItem(group.issues)) {
      if (!fulfillment.items.some((line) => line.sourceItemId === issue.sourceItemId)) {
        return fail('unknown_item', `Item ${issue.sourceItemId} is not in shipment ${group.sourceFulfillmentId}.`);
      }
      if (orderClaims.claimedItemIds.has(issue.sourceItemId) || seen.has(issue.sourceItemId)) {
        return fail('already_claimed', `Item ${issue.sourceItemId} already has a claim.`);
      }
      const orderItem = order.items.find((i) => i.sourceItemId === issue.sourceItemId);
      if (!orderItem) return fail('unknown_item', `Item ${issue.sourceItemId} is not part of this order.`);
      if (filing.photosRequired && PHOTOGRAPHABLE.includes(issue.claimType) && issue.images.length === 0) {
        return fail(
          'validation_failed',
          `Add a photo of ${orderItem.productName}: this store asks for one of each damaged, defective or wrong item.`,
        );
      }
      const quantity = validQuantity(orderItem, issue.quantity);
      if (quantity <= 0) return fail('invalid_quantity', `Nothing is left to claim of ${orderItem.productName}.`);
      const itemId = command.itemIds[idIndex++];
      if (!itemId) return fail('validation_failed', 'Not enough item ids were supplied for the claim.');
      seen.add(issue.sourceItemId);
      items.push({
        id: itemId,
        sourceItemId: orderItem.sourceItemId,
        sourceFulfillmentId: fulfillment.sourceFulfillmentId,
        sourceProductId: orderItem.sourceProductId,
        sourceVariantId: orderItem.sourceVariantId,
        sku: orderItem.sku,
        name: orderItem.productName,
        ...(orderItem.productImage ? { imageUrl: orderItem.productImage } : {}),
        images: issue.images,
        details: issue.details,
        quantity,
        claimType: issue.claimType,
        resolutionRequested: method,
        creditStore: defaultCreditStore(isOta, issue.claimType),
        price: orderItem.price,
        tax: orderItem.tax,
        discount: orderItem.discount,
        orderedQuantity: orderItem.quantity,
        refundedQuantity: orderItem.refundedQuantity,
        selectedOptions: orderItem.selectedOptions,
      });
    }
  }

  const rawSignature = request.resolution.customerSignature;
  const signature =
    typeof rawSignature === 'string'
      ? Signature.parse({ kind: 'typed', value: rawSignature, signedAt: command.now })
      : rawSignature;

  return ok([
    {
      type: 'OrderItemsClaimed',
      data: {
        orderId: order.id,
        claimId: command.claimId,
        claimNumber: command.claimNumber,
        isOta,
        items: items.map((i) => ({ sourceItemId: i.sourceItemId, quantity: i.quantity })),
        claimedAt: command.now,
      },
    },
    {
      type: 'ClaimFiled',
      data: {
        claimId: command.claimId,
        claimNumber: command.claimNumber,
        tokenHash: command.tokenHash,
        storeId: order.storeId,
        orderId: order.id,
        sourceOrderId: order.sourceOrderId,
        orderNumber: order.orderNumber,
        currency: order.currency,
        isOta,
        claimType: claimTypeOf(items),
        customer: { email: order.customerEmail, name: order.shippingAddress.name },
        items,
        desiredMethod: method,
        updatedShippingAddress: request.resolution.updatedShippingAddress ?? null,
        signature,
        policy: order.policy,
        filedAt: command.now,
        shipments: shipments.map((f) => ({
          sourceFulfillmentId: f.sourceFulfillmentId,
          carrier: f.trackingCompany,
          status: f.status,
        })),
        ...riskAtFiling(command, items, shipments, order),
      },
    },
  ]);
}

/** The claim's risk and the facts it stands on, when filing looked the shopper's history up (contract §Automation). */
function riskAtFiling(
  command: FileClaim,
  items: readonly ClaimItem[],
  shipments: readonly Fulfillment[],
  order: Order,
) {
  const { screening } = command;
  if (!screening) return {};
  const riskFacts = riskFactsOf({
    items,
    shipments,
    order,
    updatedShippingAddress: command.request.resolution.updatedShippingAddress ?? null,
    screening,
    now: command.now,
  });
  return { risk: assessRisk(riskFacts), riskFacts, shopperKey: screening.shopperKey };
}

/** FileClaim with the reference data it is decided against (orders and stores are rows, not streams). */
export type FileClaimOnOrder = FileClaim & Omit<FileClaimContext, 'orderClaims'>;

/**
 * An order's claim ledger (stream id = the order's id): filing decides here, and emits both the
 * ledger entry and the new claim's first event, appended to their own streams in one transaction.
 */
export const orderClaimsDecider: Decider<OrderClaimsState, FileClaimOnOrder> = {
  initialState: initialOrderClaimsState(),
  evolve: evolveOrderClaims,
  decide: ({ order, settings, ...command }, orderClaims) => decideFileClaim(command, { order, settings, orderClaims }),
};
