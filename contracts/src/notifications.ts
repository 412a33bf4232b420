import { z } from 'zod';
import { StoreRef } from './backoffice.js';
import { TeamNotificationKind } from './events.js';

/** One mail a member may get about a store's claims: on or off, and whether that is their own choice or their role's default. */
export const MemberNotificationSetting = z.object({
  kind: TeamNotificationKind,
  enabled: z.boolean(),
  chosen: z.boolean(),
});
export type MemberNotificationSetting = z.infer<typeof MemberNotificationSetting>;

/** The signed-in member's mail settings for one store they belong to. */
export const StoreNotificationSettings = z.object({ store: StoreRef, settings: z.array(MemberNotificationSetting) });
export type StoreNotificationSettings = z.infer<typeof StoreNotificationSettings>;

/** `GET /api/admin/notification-preferences`: every store the member belongs to (internal staff belong to none). */
export const NotificationSettingsList = z.object({ data: z.array(StoreNotificationSettings) });
export type NotificationSettingsList = z.infer<typeof NotificationSettingsList>;

/** Body of `PUT /api/admin/stores/{storeId}/notification-preferences`: the kinds to set, each on or off. */
export const SetNotificationPreferencesRequest = z
  .object({
    settings: z
      .array(z.object({ kind: TeamNotificationKind, enabled: z.boolean() }))
      .min(1)
      .max(TeamNotificationKind.options.length),
  })
  .refine((body) => new Set(body.settings.map((s) => s.kind)).size === body.settings.length, {
    message: 'each kind at most once',
    path: ['settings'],
  });
export type SetNotificationPreferencesRequest = z.infer<typeof SetNotificationPreferencesRequest>;

/** What each team mail is called on the back-office's settings. */
export const TEAM_NOTIFICATION_LABELS: Record<TeamNotificationKind, string> = {
  new_claim: 'New claims',
  customer_reply: 'Customer replies',
};

// The shopper's side (the portal's), in a module of its own: the portal's start-up builds no back-office schema.
export {
  CLAIM_LINK_RECOVERY_ANSWER,
  ClaimLinkRecoveryRequest,
  ClaimLinkRecoveryResponse,
} from './claimLinkRecovery.js';
