import { z } from 'zod';
import { StoreRef } from './backoffice.js';
import { TeamNotificationKind } from './events.js';

/** One mail a member may get about a store's claims: on or off, and whether that is their own choice or their role's default. */
export const MemberNotificationSetting = z.object({ kind: TeamNotificationKind, enabled: z.boolean(), chosen: z.boolean() });
export type MemberNotificationSetting = z.infer<typeof MemberNotificationSetting>;

/** The signed-in member's mail settings for one store they belong to. */
export const StoreNotificationSettings = z.object({ store: StoreRef, settings: z.array(MemberNotificationSetting) });
export type StoreNotificationSettings = z.infer<typeof StoreNotificationSettings>;

/** `GET /api/admin/notification-preferences`: every store the member belongs to (internal staff belong to none). */
export const NotificationSettingsList = z.object({ data: z.array(StoreNotificationSettings) });
export type NotificationSettingsList = z.infer<typeof NotificationSettingsList>;

/** Body of `PUT /api/admin/stores/{storeId}/notification-preferences`: the kinds to set, each on or off. */
export const SetNotificationPreferencesRequest = z.object({ settings: z.array(z.object({ kind: TeamNotificationKind, enabled: z.boolean() })).min(1).max(TeamNotificationKind.options.length) })
  .refine((body) => new Set(body.settings.map((s) => s.kind)).size === body.settings.length, { message: 'each kind at most once', path: ['settings'] });
export type SetNotificationPreferencesRequest = z.infer<typeof SetNotificationPreferencesRequest>;

/** What each team mail is called on the back-office's settings. */
export const TEAM_NOTIFICATION_LABELS: Record<TeamNotificationKind, string> = {
  new_claim: 'New claims',
  customer_reply: 'Customer replies',
};

/** Body of `POST /api/claim-links`: the order number and email, as the order lookup takes them. */
export const ClaimLinkRecoveryRequest = z.object({ order: z.string().trim().min(1).max(64), email: z.string().trim().min(1).max(320) });
export type ClaimLinkRecoveryRequest = z.infer<typeof ClaimLinkRecoveryRequest>;

/** The answer, the same whether anything matched or not: the links only ever go to the order's email. */
export const ClaimLinkRecoveryResponse = z.object({ message: z.string() });
export type ClaimLinkRecoveryResponse = z.infer<typeof ClaimLinkRecoveryResponse>;

export const CLAIM_LINK_RECOVERY_ANSWER =
  "If that order number and email address match an order, we've sent the links to its claims to that email address. It can take a few minutes to arrive.";
