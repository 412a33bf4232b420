import { z } from 'zod';
import { ClaimReturn, type StartReturnRequest } from '@claims/contracts';
import { request } from '@claims/ui/http';

/** The returns calls: their own module, so only the pages that show returns build these schemas. */
export const returnsApi = {
  list: (token: string) =>
    request('GET', `claims/${encodeURIComponent(token)}/returns`, { schema: z.array(ClaimReturn) }),
  start: (token: string, body: StartReturnRequest) =>
    request('POST', `claims/${encodeURIComponent(token)}/returns`, { body, schema: ClaimReturn }),
};
