import { z } from 'zod';
import {
  AcceptInvitationResponse,
  AdminClaimDetail,
  AnalyticsResponse,
  AdminClaimPage,
  ApiTokenList,
  BulkStatusResponse,
  ClaimNote,
  ClaimNoteList,
  ClaimTags,
  CreateApiTokenResponse,
  AssigneeList,
  InviteMemberResponse,
  SavedView,
  SavedViewList,
  MeResponse,
  Message,
  OperationsView,
  ParkedDeliveryOutcome,
  ParkedEventOutcome,
  ParkedReactionOutcome,
  RebuildStarted,
  RenderedMacro,
  NotificationSettingsList,
  StoreNotificationSettings,
  SettingsHistoryResponse,
  StoreSettingsView,
  TeamMember,
  TeamMemberList,
  TimelineResponse,
  CreateWebhookEndpointResponse,
  ReplayWebhookRangeResponse,
  RotateWebhookSecretResponse,
  WebhookDeliveryAttemptPage,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookReplayResponse,
  WebhookTestResponse,
  type AcceptInvitationRequest,
  type AdminClaimListQuery,
  type AnalyticsQuery,
  type BulkStatusRequest,
  type ChangeStatusRequest,
  type CreateApiTokenRequest,
  type InviteMemberRequest,
  type LoginRequest,
  type ResolveClaimRequest,
  type RoleName,
  type SavedViewInput,
  type SendMessageRequest,
  type SettingsChange,
  type SetNotificationPreferencesRequest,
  type CreateWebhookEndpointRequest,
  type ReplayWebhookRangeRequest,
  type WebhookEndpointStatus,
  type ReopenClaimRequest,
  type InviteSupportUserRequest,
  type SupportRole,
} from '@claims/contracts';
import {
  CreditNoteView,
  InvoiceDraft,
  InvoiceList,
  InvoiceView,
  PaymentMethodsView,
  SetPaymentMethodRequest,
  type IssueCreditNoteRequest,
  type IssueInvoiceRequest,
  type PaymentMethod,
  type PaymentMethodPurpose,
} from '@claims/contracts';
import { API_BASE, request } from '@claims/ui/http';

export { HttpError, isHttpError, TIMEOUT_MESSAGE } from '@claims/ui/http';

const claimPath = (claimId: string, rest = '') => `admin/claims/${encodeURIComponent(claimId)}${rest}`;
const storePath = (storeId: string, rest = '') => `admin/stores/${encodeURIComponent(storeId)}${rest}`;
const memberPath = (storeId: string, userId: string, rest = '') =>
  storePath(storeId, `/team-members/${encodeURIComponent(userId)}${rest}`);
const supportUserPath = (userId: string, rest = '') => `admin/support-users/${encodeURIComponent(userId)}${rest}`;
const tokenPath = (storeId: string, rest = '') => `stores/${encodeURIComponent(storeId)}/api-tokens${rest}`;
const webhookPath = (storeId: string, endpointId?: string, rest = '') =>
  storePath(storeId, `/webhook-endpoints${endpointId ? `/${encodeURIComponent(endpointId)}` : ''}${rest}`);

const parkedPath = (projection: string, eventId: string, action: 'retry' | 'skip') =>
  `admin/operations/parked/${encodeURIComponent(projection)}/${encodeURIComponent(eventId)}/${action}`;

const parkedReactionPath = (reaction: string, eventId: string, action: 'retry' | 'skip') =>
  `admin/operations/reactions/${encodeURIComponent(reaction)}/parked/${encodeURIComponent(eventId)}/${action}`;

const analyticsParams = (query: AnalyticsQuery) => ({
  from: query.from,
  to: query.to,
  store: query.store,
  compare: query.compare,
});

/** The list query as the URL carries it (every value a string). */
export type ClaimListParams = Partial<Record<keyof AdminClaimListQuery, string>>;

export const api = {
  me: () => request('GET', 'auth/me', { schema: MeResponse, retry: 0 }),
  login: (body: LoginRequest) => request('POST', 'auth/login', { body, schema: MeResponse }),
  acceptInvitation: (body: AcceptInvitationRequest) =>
    request('POST', 'auth/invitations/accept', { body, schema: AcceptInvitationResponse }),
  logout: () => request('POST', 'auth/logout', { schema: z.null() }),
  listClaims: (query: ClaimListParams, signal?: AbortSignal) =>
    request('GET', 'admin/claims', { query, schema: AdminClaimPage, ...(signal ? { signal } : {}) }),
  /** `asOf`: the claim as of that stream version (needs the server's `?asOf=`; see README of web/admin). */
  getClaim: (claimId: string, asOf?: number) =>
    request('GET', claimPath(claimId), { query: { asOf }, schema: AdminClaimDetail }),
  timeline: (claimId: string) => request('GET', claimPath(claimId, '/timeline'), { schema: TimelineResponse }),
  resolve: (claimId: string, body: ResolveClaimRequest) =>
    request('POST', claimPath(claimId, '/resolve'), { body, schema: AdminClaimDetail }),
  changeStatus: (claimId: string, body: ChangeStatusRequest) =>
    request('POST', claimPath(claimId, '/status'), { body, schema: AdminClaimDetail }),
  sendMessage: (claimId: string, body: z.input<typeof SendMessageRequest>) =>
    request('POST', claimPath(claimId, '/messages'), { body, schema: Message }),

  // Working the queue as a team: who works a claim, saved views.
  assignees: (claimId: string) => request('GET', claimPath(claimId, '/assignees'), { schema: AssigneeList }),
  assign: (claimId: string, assigneeId: string | null, expectedVersion?: number) =>
    request('POST', claimPath(claimId, '/assignee'), {
      body: { assigneeId, expectedVersion },
      schema: AdminClaimDetail,
    }),
  savedViews: () => request('GET', 'admin/saved-views', { schema: SavedViewList }),
  createSavedView: (body: SavedViewInput) => request('POST', 'admin/saved-views', { body, schema: SavedView }),
  updateSavedView: (viewId: string, body: Omit<SavedViewInput, 'team'>) =>
    request('PUT', `admin/saved-views/${encodeURIComponent(viewId)}`, { body, schema: SavedView }),
  deleteSavedView: (viewId: string) =>
    request('DELETE', `admin/saved-views/${encodeURIComponent(viewId)}`, { schema: z.null() }),

  // Desk tools: bulk status, notes, labels, metadata, macros.
  bulkStatus: (body: BulkStatusRequest) =>
    request('POST', 'admin/claims/bulk-status', { body, schema: BulkStatusResponse }),
  notes: (claimId: string) => request('GET', claimPath(claimId, '/notes'), { schema: ClaimNoteList }),
  addNote: (claimId: string, body: string, expectedVersion?: number) =>
    request('POST', claimPath(claimId, '/notes'), { body: { body, expectedVersion }, schema: ClaimNote }),
  addLabel: (claimId: string, label: string) =>
    request('POST', claimPath(claimId, '/labels'), { body: { label }, schema: ClaimTags }),
  removeLabel: (claimId: string, label: string) =>
    request('DELETE', claimPath(claimId, `/labels/${encodeURIComponent(label)}`), { schema: ClaimTags }),
  setMetadata: (claimId: string, key: string, value: string) =>
    request('PUT', claimPath(claimId, `/metadata/${encodeURIComponent(key)}`), { body: { value }, schema: ClaimTags }),
  renderMacro: (claimId: string, macroId: string) =>
    request('POST', claimPath(claimId, `/macros/${encodeURIComponent(macroId)}/render`), { schema: RenderedMacro }),

  // The signed-in member's own mail settings, per store.
  notificationSettings: () => request('GET', 'admin/notification-preferences', { schema: NotificationSettingsList }),
  setNotificationSettings: (storeId: string, body: SetNotificationPreferencesRequest) =>
    request('PUT', storePath(storeId, '/notification-preferences'), { body, schema: StoreNotificationSettings }),

  // Team.
  teamMembers: (storeId: string) => request('GET', storePath(storeId, '/team-members'), { schema: TeamMemberList }),
  inviteMember: (storeId: string, body: InviteMemberRequest) =>
    request('POST', storePath(storeId, '/team-members'), { body, schema: InviteMemberResponse }),
  changeRole: (storeId: string, userId: string, role: RoleName) =>
    request('POST', memberPath(storeId, userId, '/role'), { body: { role }, schema: TeamMember }),
  grantOwnership: (storeId: string, userId: string, level: 'store' | 'account') =>
    request('POST', memberPath(storeId, userId, '/ownership'), { body: { level }, schema: TeamMember }),
  removeMember: (storeId: string, userId: string) =>
    request('DELETE', memberPath(storeId, userId), { schema: z.null() }),

  // Order Protection's support staff.
  supportUsers: () => request('GET', 'admin/support-users', { schema: TeamMemberList }),
  inviteSupportUser: (body: InviteSupportUserRequest) =>
    request('POST', 'admin/support-users', { body, schema: InviteMemberResponse }),
  changeSupportRole: (userId: string, role: SupportRole) =>
    request('POST', supportUserPath(userId, '/role'), { body: { role }, schema: TeamMember }),
  removeSupportUser: (userId: string) => request('DELETE', supportUserPath(userId), { schema: z.null() }),

  // Store settings: every group the user may read, their history, one group's new value.
  settings: (storeId: string) => request('GET', storePath(storeId, '/settings'), { schema: StoreSettingsView }),
  settingsHistory: (storeId: string) =>
    request('GET', storePath(storeId, '/settings/history'), { schema: SettingsHistoryResponse }),
  changeSettings: (storeId: string, change: SettingsChange, expectedVersion: number) =>
    request('PUT', storePath(storeId, `/settings/${change.group}`), {
      body: { value: change.value, expectedVersion },
      schema: StoreSettingsView,
    }),

  // API tokens.
  apiTokens: (storeId: string) => request('GET', tokenPath(storeId), { schema: ApiTokenList }),
  createApiToken: (storeId: string, body: CreateApiTokenRequest) =>
    request('POST', tokenPath(storeId), { body, schema: CreateApiTokenResponse }),
  revokeApiToken: (storeId: string, tokenId: string) =>
    request('DELETE', tokenPath(storeId, `/${encodeURIComponent(tokenId)}`), { schema: z.null() }),

  // Webhooks.
  webhookEndpoints: (storeId: string) => request('GET', webhookPath(storeId), { schema: WebhookEndpointList }),
  createWebhookEndpoint: (storeId: string, body: CreateWebhookEndpointRequest) =>
    request('POST', webhookPath(storeId), { body, schema: CreateWebhookEndpointResponse }),
  setWebhookStatus: (storeId: string, endpointId: string, status: WebhookEndpointStatus) =>
    request('PATCH', webhookPath(storeId, endpointId), { body: { status }, schema: WebhookEndpoint }),
  deleteWebhookEndpoint: (storeId: string, endpointId: string) =>
    request('DELETE', webhookPath(storeId, endpointId), { schema: z.null() }),
  rotateWebhookSecret: (storeId: string, endpointId: string) =>
    request('POST', webhookPath(storeId, endpointId, '/rotate-secret'), {
      body: {},
      schema: RotateWebhookSecretResponse,
    }),
  sendTestWebhook: (storeId: string, endpointId: string) =>
    request('POST', webhookPath(storeId, endpointId, '/test'), { schema: WebhookTestResponse }),
  webhookDeliveries: (storeId: string, endpointId: string, cursor?: string) =>
    request('GET', webhookPath(storeId, endpointId, '/deliveries'), {
      query: { cursor, limit: '50' },
      schema: WebhookDeliveryAttemptPage,
    }),
  replayWebhookDelivery: (storeId: string, endpointId: string, deliveryId: string) =>
    request('POST', webhookPath(storeId, endpointId, `/deliveries/${encodeURIComponent(deliveryId)}/replay`), {
      schema: WebhookReplayResponse,
    }),
  replayWebhookRange: (storeId: string, endpointId: string, body: ReplayWebhookRangeRequest) =>
    request('POST', webhookPath(storeId, endpointId, '/replays'), { body, schema: ReplayWebhookRangeResponse }),

  // Operations (Order Protection staff).
  operations: () => request('GET', 'admin/operations', { schema: OperationsView }),
  retryParked: (projection: string, eventId: string) =>
    request('POST', parkedPath(projection, eventId, 'retry'), { schema: ParkedEventOutcome }),
  skipParked: (projection: string, eventId: string) =>
    request('POST', parkedPath(projection, eventId, 'skip'), { schema: ParkedEventOutcome }),
  retryParkedReaction: (reaction: string, eventId: string) =>
    request('POST', parkedReactionPath(reaction, eventId, 'retry'), { schema: ParkedReactionOutcome }),
  skipParkedReaction: (reaction: string, eventId: string) =>
    request('POST', parkedReactionPath(reaction, eventId, 'skip'), { schema: ParkedReactionOutcome }),
  retryParkedDelivery: (deliveryId: string) =>
    request('POST', `admin/operations/webhook-deliveries/${encodeURIComponent(deliveryId)}/retry`, {
      schema: ParkedDeliveryOutcome,
    }),
  skipParkedDelivery: (deliveryId: string) =>
    request('POST', `admin/operations/webhook-deliveries/${encodeURIComponent(deliveryId)}/skip`, {
      schema: ParkedDeliveryOutcome,
    }),
  rebuildProjection: (projection: string) =>
    request('POST', `admin/operations/projections/${encodeURIComponent(projection)}/rebuild`, {
      schema: RebuildStarted,
    }),

  // Analytics.
  analytics: (query: AnalyticsQuery) =>
    request('GET', 'admin/analytics', { query: analyticsParams(query), schema: AnalyticsResponse }),
  /** The export is a plain link: the browser downloads it with the session cookie. */
  analyticsCsvUrl: (query: AnalyticsQuery) => {
    const params = new URLSearchParams(
      Object.entries(analyticsParams(query)).filter((e): e is [string, string] => e[1] !== undefined),
    );
    return `${API_BASE}/admin/analytics/export.csv?${params.toString()}`;
  },
  reopen: (claimId: string, body: ReopenClaimRequest) =>
    request('POST', claimPath(claimId, '/reopen'), { body, schema: AdminClaimDetail }),
  /** Server-sent events of who else has the claim open (claims/claim/useClaimPresence.ts). */
  presenceUrl: (claimId: string) => `${API_BASE}/${claimPath(claimId, '/presence')}`,
};

const invoicePath = (invoiceId: string, rest = '') => `finance/invoices/${encodeURIComponent(invoiceId)}${rest}`;
const methodsPath = (storeId: string, rest: string) => `finance/stores/${encodeURIComponent(storeId)}/${rest}`;

/** Invoices, credit notes and payment methods (`/api/finance/...`). */
export const billingApi = {
  invoices: (storeId: string) => request('GET', 'finance/invoices', { query: { storeId }, schema: InvoiceList }),
  invoice: (invoiceId: string) => request('GET', invoicePath(invoiceId), { schema: InvoiceView }),
  draft: (storeId: string, month: string) =>
    request('GET', 'finance/invoices/draft', { query: { storeId, month }, schema: InvoiceDraft }),
  issue: (body: IssueInvoiceRequest) => request('POST', 'finance/invoices', { body, schema: InvoiceView }),
  creditNote: (invoiceId: string, body: IssueCreditNoteRequest) =>
    request('POST', invoicePath(invoiceId, '/credit-notes'), { body, schema: CreditNoteView }),
  /** A plain link: the browser downloads it with the session cookie. */
  csvUrl: (invoiceId: string) => `${API_BASE}/${invoicePath(invoiceId, '/export.csv')}`,
  methods: (storeId: string) => request('GET', methodsPath(storeId, 'payment-methods'), { schema: PaymentMethodsView }),
  setMethod: (storeId: string, purpose: PaymentMethodPurpose, method: PaymentMethod) =>
    request('PUT', methodsPath(storeId, `${purpose}-method`), { body: { method }, schema: SetPaymentMethodRequest }),
};
