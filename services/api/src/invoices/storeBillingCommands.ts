import { storeBillingStreamOf } from '@claims/contracts';
import { storeBillingDecider, type StoreBillingCommand, type StoreBillingState } from '@claims/domain';
import type { AppContext } from '../context.js';
import { handleCommand, type CommandRequest } from '../eventsourcing/commandHandler.js';
import type { Principal } from '../http/principal.js';
import { metaOf } from '../http/requestMeta.js';

/**
 * A person's command on a store's billing stream (its invoices, credit notes and payment methods), stamped with their
 * request; decided again on a concurrent change, as none of them carries a version the person saw.
 */
export const handleBillingCommand = (
  ctx: AppContext,
  storeId: string,
  { principal, requestId }: { principal: Principal; requestId: string },
  command: CommandRequest<StoreBillingState, StoreBillingCommand>['command'],
) =>
  handleCommand(ctx, {
    decider: storeBillingDecider,
    streamId: storeBillingStreamOf(storeId),
    storeId,
    meta: metaOf(principal, requestId),
    command,
  });
