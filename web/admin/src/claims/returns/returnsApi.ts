import {
  ClaimReturn,
  ClaimReturnList,
  ReturnList,
  type ChangeReturnStatusRequest,
  type ReturnStatus,
} from '@claims/contracts';
import { request } from '@claims/ui/http';

/** The desk's returns calls: every store's list, one claim's returns, and moving one. */
export const returnsApi = {
  list: (query: { storeId?: string | undefined; status?: ReturnStatus | undefined }) =>
    request('GET', 'admin/returns', { query, schema: ReturnList }),
  ofClaim: (claimId: string) =>
    request('GET', `admin/claims/${encodeURIComponent(claimId)}/returns`, { schema: ClaimReturnList }),
  move: (claimId: string, returnId: string, body: ChangeReturnStatusRequest) =>
    request('POST', `admin/claims/${encodeURIComponent(claimId)}/returns/${encodeURIComponent(returnId)}/status`, {
      body,
      schema: ClaimReturn,
    }),
};
