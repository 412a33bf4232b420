import { z } from 'zod';
import { Actor } from './events.js';
import { Branding, Store } from './store.js';
import {
  CapabilitiesSettings,
  ClaimAcknowledgmentSettings,
  ClaimFilingSettings,
  ContactSettings,
  NotificationsSettings,
  PoliciesSettings,
  PricingSettings,
  QuotePricingSettings,
  CustomerCommunicationSettings,
  EditableSettingsGroup,
  FulfillmentSettings,
  MetadataSettings,
  OneTimeAppeasementSettings,
  ReplacementCostSettings,
  RevShareSettings,
  SettingsFieldChange,
  WidgetSettings,
  type SettingsGroup,
} from './storeSettings.js';

/** Settings general (read-only): the store's own facts. */
export const GeneralSettings = Store.pick({ name: true, slug: true, domain: true, currency: true });
export type GeneralSettings = z.infer<typeof GeneralSettings>;

/** The version of the store's settings stream that last changed a group, when and by whom. */
export const SettingsVersionRef = z.object({
  version: z.number().int().positive(),
  at: z.iso.datetime(),
  actor: Actor,
});
export type SettingsVersionRef = z.infer<typeof SettingsVersionRef>;

const groupView = <G extends SettingsGroup, V extends z.ZodType>(group: G, value: V) =>
  z.object({
    group: z.literal(group),
    value,
    /** The caller may change it now (holds its update permission). */
    updatable: z.boolean(),
    /** Null for general and branding, which are not versioned here. */
    lastChange: SettingsVersionRef.nullable(),
  });

/** One group as the caller may read it. */
export const SettingsGroupView = z.discriminatedUnion('group', [
  groupView('general', GeneralSettings),
  groupView('capabilities', CapabilitiesSettings),
  groupView('fulfillment', FulfillmentSettings),
  groupView('one-time-appeasements', OneTimeAppeasementSettings),
  groupView('replacement-cost', ReplacementCostSettings),
  groupView('rev-share', RevShareSettings),
  groupView('claim-acknowledgment', ClaimAcknowledgmentSettings),
  groupView('customer-communication', CustomerCommunicationSettings),
  groupView('metadata', MetadataSettings),
  groupView('widget', WidgetSettings),
  groupView('claim-filing', ClaimFilingSettings),
  groupView('policies', PoliciesSettings),
  groupView('pricing', PricingSettings),
  groupView('quote-pricing', QuotePricingSettings),
  groupView('notifications', NotificationsSettings),
  groupView('contact', ContactSettings),
  groupView('branding', Branding),
]);
export type SettingsGroupView = z.infer<typeof SettingsGroupView>;

/**
 * `GET /api/admin/stores/{storeId}/settings` (every group the caller may read) and `…/settings/{group}`
 * (that one); `version` is the settings stream's, for `expectedVersion`. With `asOf`, the versioned
 * groups as they were then (general and branding are left out: they have no history here).
 */
export const StoreSettingsView = z.object({
  storeId: z.uuid(),
  storeName: z.string(),
  version: z.number().int().nonnegative(),
  asOf: z.iso.datetime().nullable(),
  groups: z.array(SettingsGroupView),
});
export type StoreSettingsView = z.infer<typeof StoreSettingsView>;

export const StoreSettingsQuery = z.object({ asOf: z.iso.datetime({ offset: true }).optional() });

/** Body of `PUT /api/admin/stores/{storeId}/settings/{group}`: the group's whole new value. */
export const updateSettingsRequest = <V extends z.ZodType>(value: V) =>
  z.object({
    value,
    /** The settings version the editor loaded: refused (409) when this group changed after it. */
    expectedVersion: z.number().int().nonnegative().optional(),
  });

/** One version of one group: its first recording or a change, by whom and when, field by field. */
export const SettingsHistoryEntry = z.object({
  version: z.number().int().positive(),
  group: EditableSettingsGroup,
  kind: z.enum(['initialized', 'changed']),
  at: z.iso.datetime(),
  actor: Actor,
  changes: z.array(SettingsFieldChange),
});
export type SettingsHistoryEntry = z.infer<typeof SettingsHistoryEntry>;

/** `GET /api/admin/stores/{storeId}/settings/history?group=`: newest first, only groups the caller may read. */
export const SettingsHistoryResponse = z.object({
  storeId: z.uuid(),
  version: z.number().int().nonnegative(),
  entries: z.array(SettingsHistoryEntry),
});
export type SettingsHistoryResponse = z.infer<typeof SettingsHistoryResponse>;

export const SettingsHistoryQuery = z.object({ group: EditableSettingsGroup.optional() });
