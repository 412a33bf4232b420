import { z } from 'zod';
import {
  AdminClaimDetail, AdminClaimPage, MeResponse, Message, TimelineResponse,
  type AdminClaimListQuery, type ChangeStatusRequest, type LoginRequest, type ResolveClaimRequest, type SendMessageRequest,
} from '@claims/contracts';
import { request } from '@claims/ui/http';

export { HttpError, isHttpError, TIMEOUT_MESSAGE } from '@claims/ui/http';

const claimPath = (claimId: string, rest = '') => `admin/claims/${encodeURIComponent(claimId)}${rest}`;

/** The list query as the URL carries it (every value a string). */
export type ClaimListParams = Partial<Record<keyof AdminClaimListQuery, string>>;

export const api = {
  me: () => request('GET', 'auth/me', { schema: MeResponse, retry: 0 }),
  login: (body: LoginRequest) => request('POST', 'auth/login', { body, schema: MeResponse }),
  logout: () => request('POST', 'auth/logout', { schema: z.null() }),
  listClaims: (query: ClaimListParams, signal?: AbortSignal) =>
    request('GET', 'admin/claims', { query, schema: AdminClaimPage, ...(signal ? { signal } : {}) }),
  /** `asOf`: the claim as of that stream version (needs the server's `?asOf=`; see README of web/admin). */
  getClaim: (claimId: string, asOf?: number) => request('GET', claimPath(claimId), { query: { asOf }, schema: AdminClaimDetail }),
  timeline: (claimId: string) => request('GET', claimPath(claimId, '/timeline'), { schema: TimelineResponse }),
  resolve: (claimId: string, body: ResolveClaimRequest) => request('POST', claimPath(claimId, '/resolve'), { body, schema: AdminClaimDetail }),
  changeStatus: (claimId: string, body: ChangeStatusRequest) => request('POST', claimPath(claimId, '/status'), { body, schema: AdminClaimDetail }),
  sendMessage: (claimId: string, body: z.input<typeof SendMessageRequest>) =>
    request('POST', claimPath(claimId, '/messages'), { body, schema: Message }),
};
