import { z } from 'zod';
import { EVENT_REGISTRY, type EventType } from './events.js';

/** The event types the money ledgers are made of: what the finance replay reads, and nothing else. */
export const FINANCE_EVENT_TYPES = [
  'ClaimFiled', 'ClaimResolved', 'PayoutBatchCreated', 'PayoutBatchApproved', 'PayoutBatchPaid',
  'PremiumRecorded', 'PremiumReversed', 'StoreCreditIssued', 'StoreCreditRedeemed', 'StoreCreditAdjusted', 'StoreCreditReclaimed',
  'ClaimResolutionReversed', 'InvoiceIssued',
] as const satisfies readonly EventType[];
export type FinanceEventType = (typeof FINANCE_EVENT_TYPES)[number];

/** Of a filing the ledgers need the claim's store and currency only (a ClaimFiled is the biggest event there is). */
const claimFiledFacts = EVENT_REGISTRY.ClaimFiled.data.pick({ claimId: true, storeId: true, currency: true });

/** The types of which a reader of the ledgers asks for some fields of `data` only, and those fields. */
export const FINANCE_FIELDS: Readonly<Partial<Record<FinanceEventType, readonly string[]>>> = { ClaimFiled: Object.keys(claimFiledFacts.shape) };

/**
 * A finance event as the replay parses it: each type's own schema, of a filing only FINANCE_FIELDS.
 * A whole DomainEvent of these types is one too.
 */
export const FinanceEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ClaimFiled'), data: claimFiledFacts }),
  z.object({ type: z.literal('ClaimResolved'), data: EVENT_REGISTRY.ClaimResolved.data }),
  z.object({ type: z.literal('PayoutBatchCreated'), data: EVENT_REGISTRY.PayoutBatchCreated.data }),
  z.object({ type: z.literal('PayoutBatchApproved'), data: EVENT_REGISTRY.PayoutBatchApproved.data }),
  z.object({ type: z.literal('PayoutBatchPaid'), data: EVENT_REGISTRY.PayoutBatchPaid.data }),
  z.object({ type: z.literal('PremiumRecorded'), data: EVENT_REGISTRY.PremiumRecorded.data }),
  z.object({ type: z.literal('PremiumReversed'), data: EVENT_REGISTRY.PremiumReversed.data }),
  z.object({ type: z.literal('StoreCreditIssued'), data: EVENT_REGISTRY.StoreCreditIssued.data }),
  z.object({ type: z.literal('StoreCreditRedeemed'), data: EVENT_REGISTRY.StoreCreditRedeemed.data }),
  z.object({ type: z.literal('StoreCreditAdjusted'), data: EVENT_REGISTRY.StoreCreditAdjusted.data }),
  z.object({ type: z.literal('StoreCreditReclaimed'), data: EVENT_REGISTRY.StoreCreditReclaimed.data }),
  z.object({ type: z.literal('ClaimResolutionReversed'), data: EVENT_REGISTRY.ClaimResolutionReversed.data }),
  z.object({ type: z.literal('InvoiceIssued'), data: EVENT_REGISTRY.InvoiceIssued.data }),
]);
export type FinanceEvent = z.infer<typeof FinanceEvent>;
