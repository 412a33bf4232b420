import { z } from 'zod';
import {
  FinanceMonthlyTotals,
  FinanceReplayView,
  PayoutBatch,
  PayoutBatchList,
  PayoutEntriesResponse,
  PremiumTotals,
  type FinanceReplayRequest,
} from '@claims/contracts';
import { request } from '@claims/ui/http';

/** A period of the finance API: ISO instants, both ends included. */
export interface FinancePeriod {
  from?: string | undefined;
  to?: string | undefined;
}

const batchesPath = (storeId: string, rest = '') =>
  `finance/stores/${encodeURIComponent(storeId)}/payout-batches${rest}`;
const batchPath = (storeId: string, batchId: string, step: 'approve' | 'pay') =>
  batchesPath(storeId, `/${encodeURIComponent(batchId)}/${step}`);

/** Contract §Finance, for Order Protection's finance team: the payout ledger, batches, premiums and replays. */
export const financeApi = {
  payoutEntries: (storeId: string | undefined, period: FinancePeriod) =>
    request('GET', 'finance/payout-entries', { query: { storeId, ...period }, schema: PayoutEntriesResponse }),
  premiums: (storeId: string | undefined, period: FinancePeriod) =>
    request('GET', 'finance/premiums', { query: { storeId, ...period }, schema: PremiumTotals }),
  monthlyTotals: (storeId: string | undefined, period: FinancePeriod) =>
    request('GET', 'finance/monthly-totals', { query: { storeId, ...period }, schema: FinanceMonthlyTotals }),
  payoutBatches: (storeId: string) => request('GET', batchesPath(storeId), { schema: PayoutBatchList }),
  createBatch: (storeId: string) => request('POST', batchesPath(storeId), { body: {}, schema: PayoutBatch }),
  // Without expectedVersion: the store's batches share one stream, and the decider refuses a step a batch is past.
  approveBatch: (storeId: string, batchId: string) =>
    request('POST', batchPath(storeId, batchId, 'approve'), { body: {}, schema: PayoutBatch }),
  payBatch: (storeId: string, batchId: string, reference: string) =>
    request('POST', batchPath(storeId, batchId, 'pay'), { body: { reference }, schema: PayoutBatch }),
  startReplay: (body: FinanceReplayRequest) =>
    request('POST', 'finance/replays', { body, schema: z.object({ id: z.uuid() }) }),
  replay: (id: string) => request('GET', `finance/replays/${encodeURIComponent(id)}`, { schema: FinanceReplayView }),
};
