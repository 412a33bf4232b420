import { z } from 'zod';
import {
  AdminClaimDetail, AnalyticsResponse, AdminClaimPage, ApiTokenList, BulkStatusResponse, ClaimNote, ClaimNoteList, ClaimTags, CreateApiTokenResponse,
  AssigneeList, InviteMemberResponse, MacroList, SavedView, SavedViewList, MeResponse, Message, OperationsView, ParkedEventOutcome, RenderedMacro, TeamMember, TeamMemberList, TimelineResponse,
  type AdminClaimListQuery, type AnalyticsQuery, type BulkStatusRequest, type ChangeStatusRequest, type CreateApiTokenRequest, type InviteMemberRequest,
  type LoginRequest, type ResolveClaimRequest, type RoleName, type SavedViewInput, type SendMessageRequest,
} from '@claims/contracts';
import { API_BASE, request } from '@claims/ui/http';

export { HttpError, isHttpError, TIMEOUT_MESSAGE } from '@claims/ui/http';

const claimPath = (claimId: string, rest = '') => `admin/claims/${encodeURIComponent(claimId)}${rest}`;
const storePath = (storeId: string, rest = '') => `admin/stores/${encodeURIComponent(storeId)}${rest}`;
const memberPath = (storeId: string, userId: string, rest = '') => storePath(storeId, `/team-members/${encodeURIComponent(userId)}${rest}`);
const tokenPath = (storeId: string, rest = '') => `stores/${encodeURIComponent(storeId)}/api-tokens${rest}`;

const parkedPath = (projection: string, eventId: string, action: 'retry' | 'skip') =>
  `admin/operations/parked/${encodeURIComponent(projection)}/${encodeURIComponent(eventId)}/${action}`;

const analyticsParams = (query: AnalyticsQuery) => ({ from: query.from, to: query.to, store: query.store, compare: query.compare });

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

  // Working the queue as a team: who works a claim, saved views.
  assignees: (claimId: string) => request('GET', claimPath(claimId, '/assignees'), { schema: AssigneeList }),
  assign: (claimId: string, assigneeId: string | null, expectedVersion?: number) =>
    request('POST', claimPath(claimId, '/assignee'), { body: { assigneeId, expectedVersion }, schema: AdminClaimDetail }),
  savedViews: () => request('GET', 'admin/saved-views', { schema: SavedViewList }),
  createSavedView: (body: SavedViewInput) => request('POST', 'admin/saved-views', { body, schema: SavedView }),
  updateSavedView: (viewId: string, body: Omit<SavedViewInput, 'team'>) =>
    request('PUT', `admin/saved-views/${encodeURIComponent(viewId)}`, { body, schema: SavedView }),
  deleteSavedView: (viewId: string) => request('DELETE', `admin/saved-views/${encodeURIComponent(viewId)}`, { schema: z.null() }),

  // Desk tools: bulk status, notes, labels, metadata, macros.
  bulkStatus: (body: BulkStatusRequest) => request('POST', 'admin/claims/bulk-status', { body, schema: BulkStatusResponse }),
  notes: (claimId: string) => request('GET', claimPath(claimId, '/notes'), { schema: ClaimNoteList }),
  addNote: (claimId: string, body: string, expectedVersion?: number) =>
    request('POST', claimPath(claimId, '/notes'), { body: { body, expectedVersion }, schema: ClaimNote }),
  addLabel: (claimId: string, label: string) => request('POST', claimPath(claimId, '/labels'), { body: { label }, schema: ClaimTags }),
  removeLabel: (claimId: string, label: string) =>
    request('DELETE', claimPath(claimId, `/labels/${encodeURIComponent(label)}`), { schema: ClaimTags }),
  setMetadata: (claimId: string, key: string, value: string) =>
    request('PUT', claimPath(claimId, `/metadata/${encodeURIComponent(key)}`), { body: { value }, schema: ClaimTags }),
  storeMacros: (storeId: string) => request('GET', storePath(storeId, '/macros'), { schema: MacroList }),
  globalMacros: () => request('GET', 'admin/global-macros', { schema: MacroList }),
  renderMacro: (claimId: string, macroId: string) =>
    request('POST', claimPath(claimId, `/macros/${encodeURIComponent(macroId)}/render`), { schema: RenderedMacro }),

  // Team.
  teamMembers: (storeId: string) => request('GET', storePath(storeId, '/team-members'), { schema: TeamMemberList }),
  inviteMember: (storeId: string, body: InviteMemberRequest) =>
    request('POST', storePath(storeId, '/team-members'), { body, schema: InviteMemberResponse }),
  changeRole: (storeId: string, userId: string, role: RoleName) =>
    request('POST', memberPath(storeId, userId, '/role'), { body: { role }, schema: TeamMember }),
  grantOwnership: (storeId: string, userId: string, level: 'store' | 'account') =>
    request('POST', memberPath(storeId, userId, '/ownership'), { body: { level }, schema: TeamMember }),
  removeMember: (storeId: string, userId: string) => request('DELETE', memberPath(storeId, userId), { schema: z.null() }),

  // API tokens.
  apiTokens: (storeId: string) => request('GET', tokenPath(storeId), { schema: ApiTokenList }),
  createApiToken: (storeId: string, body: CreateApiTokenRequest) => request('POST', tokenPath(storeId), { body, schema: CreateApiTokenResponse }),
  revokeApiToken: (storeId: string, tokenId: string) => request('DELETE', tokenPath(storeId, `/${encodeURIComponent(tokenId)}`), { schema: z.null() }),

  // Operations (Order Protection staff).
  operations: () => request('GET', 'admin/operations', { schema: OperationsView }),
  retryParked: (projection: string, eventId: string) => request('POST', parkedPath(projection, eventId, 'retry'), { schema: ParkedEventOutcome }),
  skipParked: (projection: string, eventId: string) => request('POST', parkedPath(projection, eventId, 'skip'), { schema: ParkedEventOutcome }),

  // Analytics.
  analytics: (query: AnalyticsQuery) => request('GET', 'admin/analytics', { query: analyticsParams(query), schema: AnalyticsResponse }),
  /** The export is a plain link: the browser downloads it with the session cookie. */
  analyticsCsvUrl: (query: AnalyticsQuery) => {
    const params = new URLSearchParams(Object.entries(analyticsParams(query)).filter((e): e is [string, string] => e[1] !== undefined));
    return `${API_BASE}/admin/analytics/export.csv?${params.toString()}`;
  },
};
