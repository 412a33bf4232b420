import {
  StoreCreditBalanceList,
  StoreCreditLedger,
  type AdjustStoreCreditRequest,
  type RedeemStoreCreditRequest,
} from '@claims/contracts';
import { request } from '@claims/ui/http';

const creditPath = (storeId: string, rest = '') => `admin/stores/${encodeURIComponent(storeId)}/store-credit${rest}`;

/** Each customer's store credit at a store: balances, one customer's ledger, redemptions and adjustments. */
export const storeCreditApi = {
  balances: (storeId: string) => request('GET', creditPath(storeId), { schema: StoreCreditBalanceList }),
  ledger: (storeId: string, email: string) =>
    request('GET', creditPath(storeId, '/ledger'), { query: { email }, schema: StoreCreditLedger }),
  redeem: (storeId: string, body: RedeemStoreCreditRequest) =>
    request('POST', creditPath(storeId, '/redeem'), { body, schema: StoreCreditLedger }),
  adjust: (storeId: string, body: AdjustStoreCreditRequest) =>
    request('POST', creditPath(storeId, '/adjust'), { body, schema: StoreCreditLedger }),
};
