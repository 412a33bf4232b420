import { useSyncExternalStore } from 'react';
import {
  SESSION_STEP_PATHS,
  type ClaimSession,
  type CustomerFulfillment,
  type CustomerOrder,
  type DraftClaim,
  type DraftFulfillment,
  type DraftIssue,
  type FileClaimRequest,
  type SessionStatus,
} from '@claims/contracts';
import { fulfillmentFileable, isOffered, latestIssuePerItem } from '@claims/domain';
import { api, HttpError, loadSchemas } from './api.js';
import type { PortalState } from './schemas.js';

export type { PortalState };

const STORAGE_KEY = 'claims-portal:v1';

export const emptyClaim = (email = '', sourceOrderId = ''): DraftClaim => ({
  customer: { email, sourceOrderId },
  fulfillments: {},
  resolution: { desiredMethod: null, updatedShippingAddress: null },
  signature: null,
  messages: [],
  id: null,
  store: null,
});

/** The flow on an order just loaded: a fresh claim on it, none of the steps taken on an earlier one. */
export const flowOn = (order: CustomerOrder | null) =>
  ({
    order,
    claim: emptyClaim(order?.customerEmail, order?.orderId),
    currentShipmentId: null,
    category: null,
    sessionStatus: null,
    restored: false,
    submitted: null,
    selectedShipments: [],
    sessionId: null,
    otaAcknowledged: false,
  }) satisfies Partial<PortalState>;

const initial: PortalState = {
  ...flowOn(null),
  brandStoreId: null,
  queryStore: null,
  demo: false,
  submission: null,
};

function saved(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

let state: PortalState = initial;
const listeners = new Set<() => void>();
/** The saved flow, checked against its schema before anything reads it; none on a first visit, so nothing to load. */
let unrestored: string | null = saved();

/**
 * Restores the flow saved in this tab (a reload keeps it). The router awaits it before any route runs, so nothing
 * reads or writes the state before it; with nothing saved it is done at once and the schemas stay unloaded.
 */
export async function restoreSavedState(): Promise<void> {
  const raw = unrestored;
  if (raw === null) return;
  const { PortalState } = await loadSchemas();
  if (unrestored === null) return;
  unrestored = null;
  try {
    const parsed = PortalState.safeParse(JSON.parse(raw));
    if (parsed.success) state = parsed.data;
  } catch {
    // Unreadable saved state: a fresh flow.
  }
  for (const listener of listeners) listener();
}

export function getState(): PortalState {
  return state;
}

export function setState(update: Partial<PortalState> | ((s: PortalState) => Partial<PortalState>)): void {
  const previous = state;
  // A write supersedes whatever was saved before it.
  unrestored = null;
  state = { ...state, ...(typeof update === 'function' ? update(state) : update) };
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or disabled: the flow still works for this page's lifetime.
  }
  if (previous.claim !== state.claim || previous.currentShipmentId !== state.currentShipmentId) scheduleSessionSave();
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function usePortal<T>(select: (s: PortalState) => T): T {
  return useSyncExternalStore(
    subscribe,
    () => select(state),
    () => select(initial),
  );
}

/** Reaching /start resets the current order (docs/product.md#portal-routes). */
export function resetOrder(): void {
  setState((s) => ({ ...initial, queryStore: s.queryStore }));
}

// ---- Claim session sync (metadata saved on change, status on step change: docs/product.md#claim-sessions) ----

let saveTimer: ReturnType<typeof setTimeout> | null = null;
let pendingSave: Promise<unknown> = Promise.resolve();

function shouldSaveMetadata(s: PortalState): boolean {
  if (!s.order || s.demo) return false;
  const current = s.currentShipmentId;
  if (!current) return false;
  // No save while the claim has no entry for the current shipment (docs/product.md#claim-sessions).
  return Boolean(s.claim.fulfillments[current]);
}

function scheduleSessionSave(): void {
  if (saveTimer) clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    saveTimer = null;
    const s = state;
    if (!shouldSaveMetadata(s) || !s.order) return;
    pendingSave = api
      .saveSession({
        email: s.order.customerEmail,
        orderId: s.order.systemOrderId,
        metadata: { claim: s.claim, currentShipmentId: s.currentShipmentId },
      })
      .then((session) => {
        if (state.order) state = { ...state, sessionId: session.id };
      })
      .catch(() => undefined);
  }, 300);
}

/** Sends any pending draft save now (before submitting, or leaving). */
export async function flushSessionSave(): Promise<void> {
  if (saveTimer) {
    clearTimeout(saveTimer);
    saveTimer = null;
    const s = state;
    if (shouldSaveMetadata(s) && s.order) {
      pendingSave = api
        .saveSession({
          email: s.order.customerEmail,
          orderId: s.order.systemOrderId,
          metadata: { claim: s.claim, currentShipmentId: s.currentShipmentId },
        })
        .catch(() => undefined);
    }
  }
  await pendingSave;
}

const STEP_BY_PATH = new Map<string, SessionStatus>(
  (Object.entries(SESSION_STEP_PATHS) as Array<[SessionStatus, string]>).map(([status, path]) => [path, status]),
);

/** Before each navigation, a step path different from the stored status updates the session (docs/product.md#claim-sessions). */
export function trackStep(pathname: string): void {
  const s = state;
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  const status = STEP_BY_PATH.get(path);
  if (!s.order || !status || status === s.sessionStatus) return;
  setState({ sessionStatus: status });
  if (s.demo) return;
  void api.saveSession({ email: s.order.customerEmail, orderId: s.order.systemOrderId, status }).catch(() => undefined);
}

/** A found claim session restores the saved claim and current shipment (docs/product.md#claim-sessions). */
export function restoreFromSession(session: ClaimSession, order: CustomerOrder): boolean {
  const metadata = session.metadata;
  if (!metadata || metadata.claim.customer.sourceOrderId !== order.orderId) {
    setState({ sessionStatus: session.status });
    return false;
  }
  const open = new Set(fileableFulfillments(order).map((f) => f.id));
  const fulfillments = Object.fromEntries(Object.entries(metadata.claim.fulfillments).filter(([id]) => open.has(id)));
  if (Object.keys(fulfillments).length === 0) {
    setState({ sessionStatus: session.status });
    return false;
  }
  const current =
    metadata.currentShipmentId && open.has(metadata.currentShipmentId)
      ? metadata.currentShipmentId
      : (Object.keys(fulfillments)[0] ?? null);
  const first = Object.values(fulfillments)[0];
  // A resolution the store stopped offering since the draft was saved is chosen again.
  const { desiredMethod } = metadata.claim.resolution;
  const resolution =
    desiredMethod && !isOffered(desiredMethod, order.settings.capabilities)
      ? { ...metadata.claim.resolution, desiredMethod: null }
      : metadata.claim.resolution;
  setState({
    claim: { ...metadata.claim, fulfillments, resolution },
    currentShipmentId: current,
    sessionStatus: session.status,
    category: first?.shipmentIssue ? 'notReceived' : 'issuesWithItems',
    restored: true,
  });
  return true;
}

// ---- Derived rules ----

/** Shipments the shopper may claim on (the domain's rule, with the order's one-time-appeasement availability). */
export function fileableFulfillments(order: CustomerOrder): CustomerFulfillment[] {
  return order.fulfillments.filter((f) => fulfillmentFileable(f, order.isOneTimeAppeasement));
}

/** How many of an item may still be claimed (docs/product.md#claimable-quantity; 0 once claimed). */
export function claimableQuantity(order: CustomerOrder, sourceItemId: string, shipped: number): number {
  return Math.min(order.eligibility[sourceItemId] ?? 0, shipped);
}

export type Destination = '/issues' | '/too-soon' | '/too-late' | '/not-shipped' | 'unprotected' | 'claimed';

/** Eligibility: where the shopper goes once the order is found (docs/product.md#claim-statuses). */
export function destinationOf(order: CustomerOrder): Destination {
  const fs = order.fulfillments;
  if (fs.length === 0 || fs.every((f) => f.eligibilityCode === 'not_shipped')) return '/not-shipped';
  if (fileableFulfillments(order).length > 0) return '/issues';
  if (fs[0]?.eligibilityCode === 'expired') return '/too-late';
  if (fs.some((f) => f.eligibilityCode === 'too_soon')) return '/too-soon';
  if (fs.some((f) => f.eligibilityCode === 'unprotected')) return 'unprotected';
  if (fs.some((f) => f.eligibilityCode === 'expired')) return '/too-late';
  return 'claimed';
}

/** Adding issues for a fulfillment replaces earlier issues for the same source items (docs/product.md#draft-claim). */
export function addIssues(fulfillmentId: string, issues: DraftIssue[], patch: Partial<DraftFulfillment> = {}): void {
  setState((s) => {
    const existing = s.claim.fulfillments[fulfillmentId];
    const merged = latestIssuePerItem([...(existing?.issues ?? []), ...issues]);
    const next: DraftFulfillment = { id: fulfillmentId, shipmentIssue: null, ...existing, ...patch, issues: merged };
    return { claim: { ...s.claim, fulfillments: { ...s.claim.fulfillments, [fulfillmentId]: next } } };
  });
}

export function removeIssue(fulfillmentId: string, issueId: string): void {
  setState((s) => {
    const existing = s.claim.fulfillments[fulfillmentId];
    if (!existing) return {};
    const issues = existing.issues.filter((i) => i.id !== issueId);
    const fulfillments = { ...s.claim.fulfillments };
    if (issues.length === 0) delete fulfillments[fulfillmentId];
    else fulfillments[fulfillmentId] = { ...existing, issues };
    return { claim: { ...s.claim, fulfillments } };
  });
}

/** Fulfillments with at least one issue (one without issues is unfinished: docs/product.md#draft-claim). */
export const finishedFulfillments = (claim: DraftClaim): DraftFulfillment[] =>
  Object.values(claim.fulfillments).filter((f) => f.issues.length > 0);

/**
 * The key for submitting this body: the one already used for the same body, or a new one (a changed
 * body is a new request; the server refuses a key reused with another body).
 */
export function submissionKey(body: FileClaimRequest): string {
  const json = JSON.stringify(body);
  if (state.submission?.body === json) return state.submission.key;
  const key = shortId(18);
  setState({ submission: { key, body: json } });
  return key;
}

/**
 * After an answer that settles the submission (filed, or refused for a reason a retry of the same
 * body would not change), the next submission gets a new key. A lost answer, a timeout, a 5xx or a
 * 429 keeps it: the claim may have been filed, or the same request may simply be tried again.
 */
export function settleSubmission(error?: unknown): void {
  const retryable = error !== undefined && !(error instanceof HttpError && error.status < 500 && error.status !== 429);
  if (!retryable) setState({ submission: null });
}

/** Random URL-safe text (`bytes` of entropy); crypto.randomUUID needs a secure context, this does not. */
export function shortId(bytes = 9): string {
  const random = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...random))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}
