import { z } from 'zod';
import { EVENT_REGISTRY, type EventType } from './events.js';

/** The event types the money ledgers are made of: what the finance replay reads, and nothing else. */
export const FINANCE_EVENT_TYPES = [
  'ClaimFiled',
  'ClaimResolved',
  'PayoutBatchCreated',
  'PayoutBatchApproved',
  'PayoutBatchPaid',
  'PremiumRecorded',
  'PremiumReversed',
  'StoreCreditIssued',
  'StoreCreditRedeemed',
  'StoreCreditAdjusted',
  'StoreCreditReclaimed',
  'ClaimResolutionReversed',
  'InvoiceIssued',
] as const satisfies readonly EventType[];
export type FinanceEventType = (typeof FINANCE_EVENT_TYPES)[number];

/** Of a filing the ledgers need the claim's store and currency only (a ClaimFiled is the biggest event there is). */
const claimFiledFacts = EVENT_REGISTRY.ClaimFiled.data.pick({ claimId: true, storeId: true, currency: true });

/** The types of which a reader of the ledgers asks for some fields of `data` only, and those fields. */
export const FINANCE_FIELDS: Readonly<Partial<Record<FinanceEventType, readonly string[]>>> = {
  ClaimFiled: Object.keys(claimFiledFacts.shape),
};

type FinanceEventSchema<T extends FinanceEventType> = T extends FinanceEventType
  ? z.ZodObject<{
      type: z.ZodLiteral<T>;
      data: T extends 'ClaimFiled' ? typeof claimFiledFacts : (typeof EVENT_REGISTRY)[T]['data'];
    }>
  : never;

// The registry pairs each type with its data schema, which this generic signature cannot see through.
const financeEventSchema = <T extends FinanceEventType>(type: T): FinanceEventSchema<T> =>
  z.object({
    type: z.literal(type),
    data: type === 'ClaimFiled' ? claimFiledFacts : EVENT_REGISTRY[type].data,
  }) as FinanceEventSchema<T>;

const [firstSchema, ...otherSchemas] = FINANCE_EVENT_TYPES.map(financeEventSchema);
if (firstSchema === undefined) throw new Error('FINANCE_EVENT_TYPES is empty');

/**
 * A finance event as the replay parses it: each type's own schema from the registry, of a filing only FINANCE_FIELDS.
 * A whole DomainEvent of these types is one too.
 */
export const FinanceEvent = z.discriminatedUnion('type', [firstSchema, ...otherSchemas]);
export type FinanceEvent = z.infer<typeof FinanceEvent>;
