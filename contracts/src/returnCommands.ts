import { z } from 'zod';
import { Actor } from './events.js';
import { ReturnStatus, StartReturnRequest } from './returns.js';

/** The shopper starts a return; the edge supplies the id, the clock and where the store's returns go. */
export const StartReturn = z.object({
  type: z.literal('StartReturn'),
  claimId: z.uuid(),
  returnId: z.uuid(),
  /** The store's returns portal when it runs its own (capabilities.returns with an address), else null: handled here. */
  storePortalUrl: z.string().nullable(),
  request: StartReturnRequest,
  actor: Actor,
  now: z.iso.datetime(),
});
export type StartReturn = z.infer<typeof StartReturn>;

export const ChangeReturnStatus = z.object({
  type: z.literal('ChangeReturnStatus'),
  claimId: z.uuid(),
  returnId: z.uuid(),
  to: ReturnStatus,
  note: z.string().nullable(),
  actor: Actor,
  now: z.iso.datetime(),
});
export type ChangeReturnStatus = z.infer<typeof ChangeReturnStatus>;

export const ReturnCommand = z.discriminatedUnion('type', [StartReturn, ChangeReturnStatus]);
export type ReturnCommand = z.infer<typeof ReturnCommand>;
