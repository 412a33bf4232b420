import { z } from 'zod';
import { MoneyRules } from './finance.js';
import { ClaimPolicySettings, OrderSettings, SlaSettings } from './order.js';
import { MetadataKey, MetadataValue } from './deskTools.js';
import type { Permission } from './permissions.js';
import { ContactSettings, PoliciesSettings } from './storeHelp.js';

export { ContactSettings, PoliciesSettings } from './storeHelp.js';

/**
 * A store's settings, by group (docs/product.md#settings-groups). The editable groups are events of the store's
 * `store-settings:<storeId>` stream (docs/decisions/store-settings.md); general (the store's facts)
 * and branding are read here and changed elsewhere.
 */

// ---------------------------------------------------------------------------------------------
// The value of each group: the shapes stored and answered (no cross-field rules, so an event
// recorded under older rules still reads). What a change must satisfy is `SettingsChangeInput`.

/** Capabilities: what the store offers, its store-credit bonus and its returns links (docs/product.md#store-credit-bonus). */
export const CapabilitiesSettings = OrderSettings;
export type CapabilitiesSettings = z.infer<typeof CapabilitiesSettings>;

/** When a delivered parcel may be claimed: from `claimWaitDays` after delivery until `claimWindowDays` after it. */
export const FulfillmentSettings = ClaimPolicySettings.pick({ claimWaitDays: true, claimWindowDays: true });
export type FulfillmentSettings = z.infer<typeof FulfillmentSettings>;

export const OneTimeAppeasementSettings = ClaimPolicySettings.pick({ allowOneTimeAppeasement: true });
export type OneTimeAppeasementSettings = z.infer<typeof OneTimeAppeasementSettings>;

/** A reshipment is owed to the store at this percentage of the items' value (finance). */
export const ReplacementCostSettings = MoneyRules;
export type ReplacementCostSettings = z.infer<typeof ReplacementCostSettings>;

/** The merchant's share of the protection premiums its orders pay: each invoice's revenue-share line (recorded with it). */
export const RevShareSettings = z.object({ merchantSharePercent: z.number().min(0).max(100) });
export type RevShareSettings = z.infer<typeof RevShareSettings>;

/** A message the store wants shoppers to read once a claim is received (the portal's claim-received page shows it while on). */
export const ClaimAcknowledgmentSettings = z.object({ enabled: z.boolean(), message: z.string().max(2_000) });
export type ClaimAcknowledgmentSettings = z.infer<typeof ClaimAcknowledgmentSettings>;

/** How long a conversation may wait on the shopper or the brand before the SLA timers act (docs/decisions/sla-timers.md). */
export const CustomerCommunicationSettings = z.object({ sla: SlaSettings.required() });
export type CustomerCommunicationSettings = z.infer<typeof CustomerCommunicationSettings>;

/** The store's own key/value notes, for integrations (same keys and limits as a claim's metadata). */
export const MetadataSettings = z.object({ entries: z.record(MetadataKey, MetadataValue) });
export type MetadataSettings = z.infer<typeof MetadataSettings>;

/** The protection widget of the store's checkout (recorded; served by the widget, not by this product). */
export const WidgetSettings = z.object({ enabled: z.boolean(), defaultProtected: z.boolean() });
export type WidgetSettings = z.infer<typeof WidgetSettings>;

/** Whether shoppers may file online, and whether a damaged, defective or wrong item needs a photo (the filing decider reads both). */
export const ClaimFilingSettings = z.object({ acceptingClaims: z.boolean(), photosRequired: z.boolean() });
export type ClaimFilingSettings = z.infer<typeof ClaimFilingSettings>;

/** What Order Protection charges: the premium as a percentage of a protected order's value (internal; recorded). */
export const PricingSettings = z.object({ premiumPercent: z.number().min(0).max(100) });
export type PricingSettings = z.infer<typeof PricingSettings>;

/** The rate the checkout widget quotes shoppers for protection (internal; recorded, served by the widget). */
export const QuotePricingSettings = z.object({ quotePercent: z.number().min(0).max(100) });
export type QuotePricingSettings = z.infer<typeof QuotePricingSettings>;

/** Where replies to the store's mail to shoppers go (the mailer sends from MAIL_FROM with this as Reply-To). */
export const NotificationsSettings = z.object({ replyToEmail: z.string().nullable() });
export type NotificationsSettings = z.infer<typeof NotificationsSettings>;

/**
 * Everything a store has set, as the catalog keeps it and the deciders read it: the order settings,
 * the claim policy and the optional groups (absent: their defaults, {@link SETTINGS_DEFAULTS}).
 */
export const StoreSettings = OrderSettings.extend(ClaimPolicySettings.shape).extend({
  sla: SlaSettings.optional(),
  /** The store's money rules (finance); absent: DEFAULT_MONEY_RULES. */
  moneyRules: MoneyRules.partial().optional(),
  revShare: RevShareSettings.optional(),
  claimAcknowledgment: ClaimAcknowledgmentSettings.optional(),
  widget: WidgetSettings.optional(),
  metadata: MetadataSettings.shape.entries.optional(),
  claimFiling: ClaimFilingSettings.optional(),
  policies: PoliciesSettings.optional(),
  pricing: PricingSettings.optional(),
  quotePricing: QuotePricingSettings.optional(),
  notifications: NotificationsSettings.optional(),
  contact: ContactSettings.optional(),
});
export type StoreSettings = z.infer<typeof StoreSettings>;

/** What a store that never set an optional group has. */
export const SETTINGS_DEFAULTS = {
  revShare: { merchantSharePercent: 0 },
  claimAcknowledgment: { enabled: false, message: '' },
  widget: { enabled: false, defaultProtected: false },
  claimFiling: { acceptingClaims: true, photosRequired: false },
  policies: { termsUrl: null, privacyUrl: null, protectionTermsUrl: null },
  pricing: { premiumPercent: 0 },
  quotePricing: { quotePercent: 0 },
  notifications: { replyToEmail: null },
  contact: { supportEmail: null, supportPhone: null },
} as const satisfies {
  revShare: RevShareSettings;
  claimAcknowledgment: ClaimAcknowledgmentSettings;
  widget: WidgetSettings;
  claimFiling: ClaimFilingSettings;
  policies: PoliciesSettings;
  pricing: PricingSettings;
  quotePricing: QuotePricingSettings;
  notifications: NotificationsSettings;
  contact: ContactSettings;
};

// ---------------------------------------------------------------------------------------------
// Groups

export const EDITABLE_SETTINGS_GROUPS = [
  'capabilities',
  'fulfillment',
  'one-time-appeasements',
  'replacement-cost',
  'rev-share',
  'claim-acknowledgment',
  'customer-communication',
  'metadata',
  'widget',
  'claim-filing',
  'policies',
  'pricing',
  'quote-pricing',
  'notifications',
  'contact',
] as const;
export const EditableSettingsGroup = z.enum(EDITABLE_SETTINGS_GROUPS);
export type EditableSettingsGroup = z.infer<typeof EditableSettingsGroup>;

/** Every group of the settings page: the store's facts first, branding last. */
export const SETTINGS_GROUPS = ['general', ...EDITABLE_SETTINGS_GROUPS, 'branding'] as const;
export const SettingsGroup = z.enum(SETTINGS_GROUPS);
export type SettingsGroup = z.infer<typeof SettingsGroup>;

/** The value of every editable group at once (what a fold of the settings stream gives). */
export const EditableSettingsValues = z.object({
  capabilities: CapabilitiesSettings,
  fulfillment: FulfillmentSettings,
  'one-time-appeasements': OneTimeAppeasementSettings,
  'replacement-cost': ReplacementCostSettings,
  'rev-share': RevShareSettings,
  'claim-acknowledgment': ClaimAcknowledgmentSettings,
  'customer-communication': CustomerCommunicationSettings,
  metadata: MetadataSettings,
  widget: WidgetSettings,
  'claim-filing': ClaimFilingSettings,
  policies: PoliciesSettings,
  pricing: PricingSettings,
  'quote-pricing': QuotePricingSettings,
  notifications: NotificationsSettings,
  contact: ContactSettings,
});
export type EditableSettingsValues = z.infer<typeof EditableSettingsValues>;

/**
 * Who reads and who changes each group (docs/product.md#settings-groups). General is read-only by definition; branding is
 * changed by the branding editor, not through these routes.
 */
export const SETTINGS_GROUP_ACCESS: Readonly<Record<SettingsGroup, { read: Permission; update: Permission | null }>> = {
  general: { read: 'settings-general:read', update: null },
  capabilities: { read: 'capabilities:read', update: 'capabilities:update' },
  fulfillment: { read: 'settings-fulfillment:read', update: 'settings-fulfillment:update' },
  'one-time-appeasements': {
    read: 'settings-one-time-appeasements:read',
    update: 'settings-one-time-appeasements:update',
  },
  'replacement-cost': { read: 'settings-replacement-cost:read', update: 'settings-replacement-cost:update' },
  'rev-share': { read: 'settings-rev-share:read', update: 'settings-rev-share:update' },
  'claim-acknowledgment': {
    read: 'settings-claim-acknowledgment:read',
    update: 'settings-claim-acknowledgment:update',
  },
  'customer-communication': {
    read: 'settings-customer-communication:read',
    update: 'settings-customer-communication:update',
  },
  metadata: { read: 'settings-metadata:read', update: 'settings-metadata:update' },
  widget: { read: 'settings-widget:read', update: 'settings-widget:update' },
  'claim-filing': { read: 'claim-filing:read', update: 'claim-filing:update' },
  policies: { read: 'policies:read', update: 'policies:update' },
  pricing: { read: 'pricing:read', update: 'pricing:update' },
  'quote-pricing': { read: 'quote-pricing:read', update: 'quote-pricing:update' },
  notifications: { read: 'notifications:read', update: 'notifications:update' },
  contact: { read: 'contact:read', update: 'contact:update' },
  branding: { read: 'branding:read', update: null },
};

export const SETTINGS_GROUP_LABELS: Readonly<Record<SettingsGroup, string>> = {
  general: 'General',
  capabilities: 'Capabilities',
  fulfillment: 'Fulfillment',
  'one-time-appeasements': 'One-time appeasements',
  'replacement-cost': 'Replacement cost',
  'rev-share': 'Revenue share',
  'claim-acknowledgment': 'Claim acknowledgment',
  'customer-communication': 'Customer communication',
  metadata: 'Metadata',
  widget: 'Widget',
  'claim-filing': 'Claim filing',
  policies: 'Policies',
  pricing: 'Pricing',
  'quote-pricing': 'Quote pricing',
  notifications: 'Notifications',
  contact: 'Contact',
  branding: 'Branding',
};

// ---------------------------------------------------------------------------------------------
// Changes: one group's new value. The event keeps the stored shape; a request must also pass the rules.

/** One group's change, `{ group, value }`, of each group's value schema. */
type GroupChange<
  Groups extends Record<EditableSettingsGroup, z.ZodType>,
  G extends EditableSettingsGroup,
> = G extends EditableSettingsGroup ? z.ZodObject<{ group: z.ZodLiteral<G>; value: Groups[G] }> : never;

/** The union of changes to each group, one value schema per group (the stored shapes, or the rules a request must pass). */
function groupChanges<Groups extends Record<EditableSettingsGroup, z.ZodType>>(groups: Groups) {
  // Each object pairs a group with its own schema, which this generic map cannot see through.
  const [first, ...others] = EDITABLE_SETTINGS_GROUPS.map(
    (group) =>
      z.object({ group: z.literal(group), value: groups[group] }) as GroupChange<Groups, EditableSettingsGroup>,
  );
  if (first === undefined) throw new Error('EDITABLE_SETTINGS_GROUPS is empty');
  return z.discriminatedUnion('group', [first, ...others]);
}

export const SettingsChange = groupChanges(EditableSettingsValues.shape);
export type SettingsChange = z.infer<typeof SettingsChange>;

const HttpUrl = z.url({ protocol: /^https?$/, message: 'Enter a full http(s) address.' }).max(2_000);

/** A capabilities change: links are web addresses, returns need the returns portal, the credit switch is one. */
export const CapabilitiesInput = CapabilitiesSettings.extend({
  credit: CapabilitiesSettings.shape.credit.extend({ bonus: z.number().nonnegative().max(1_000_000) }),
  returns: z.object({ portalUrl: HttpUrl.nullable(), trackingUrl: HttpUrl.nullable() }),
}).superRefine((value, ctx) => {
  if (value.capabilities.returns && !value.returns.portalUrl) {
    ctx.addIssue({
      code: 'custom',
      message: 'Returns need the returns portal address.',
      path: ['returns', 'portalUrl'],
    });
  }
  if (value.credit.enabled !== value.capabilities.credit) {
    ctx.addIssue({
      code: 'custom',
      message: 'credit.enabled and capabilities.credit are the same switch: give both the same value.',
      path: ['credit', 'enabled'],
    });
  }
  if (value.credit.bonusType === 'percentage' && value.credit.bonus > 100) {
    ctx.addIssue({ code: 'custom', message: 'A percentage bonus is at most 100.', path: ['credit', 'bonus'] });
  }
});

export const FulfillmentInput = z
  .object({
    claimWaitDays: z.number().int().min(0).max(365),
    claimWindowDays: z.number().int().min(1).max(3_650),
  })
  .refine((value) => value.claimWaitDays <= value.claimWindowDays, {
    message: 'The claim window must not end before the waiting period does.',
    path: ['claimWindowDays'],
  });

export const MetadataInput = MetadataSettings.refine((value) => Object.keys(value.entries).length <= 100, {
  message: 'At most 100 metadata keys.',
  path: ['entries'],
});

const OptionalEmail = z.email({ message: 'Enter an email address.' }).max(320).nullable();

export const PoliciesInput = z.object({
  termsUrl: HttpUrl.nullable(),
  privacyUrl: HttpUrl.nullable(),
  protectionTermsUrl: HttpUrl.nullable(),
});
export const NotificationsInput = z.object({ replyToEmail: OptionalEmail });
export const ContactInput = z.object({
  supportEmail: OptionalEmail,
  supportPhone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{5,30}$/, 'Enter a phone number: digits, spaces, brackets and hyphens, optionally after a +.')
    .nullable(),
});

export const ClaimAcknowledgmentInput = ClaimAcknowledgmentSettings.extend({ message: z.string().trim().max(2_000) });

/** A change as a person or program asks for it: the stored shape plus each group's rules. */
export const SettingsChangeInput = groupChanges({
  ...EditableSettingsValues.shape,
  capabilities: CapabilitiesInput,
  fulfillment: FulfillmentInput,
  'claim-acknowledgment': ClaimAcknowledgmentInput,
  metadata: MetadataInput,
  policies: PoliciesInput,
  notifications: NotificationsInput,
  contact: ContactInput,
});
export type SettingsChangeInput = z.infer<typeof SettingsChangeInput>;

/** One field a change moved, named by its path in the group's value (`capabilities.refund`, `entries.erp-id`). */
export const SettingsScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type SettingsScalar = z.infer<typeof SettingsScalar>;
export const SettingsFieldChange = z.object({ field: z.string(), from: SettingsScalar, to: SettingsScalar });
export type SettingsFieldChange = z.infer<typeof SettingsFieldChange>;
