import {
  DEFAULT_MONEY_RULES,
  SETTINGS_DEFAULTS,
  SLA_DEFAULTS,
  type EditableSettingsValues,
  type SettingsChange,
  type StoreSettings,
} from '@claims/contracts';

/** Each editable group's value in a store's settings, defaults filled in for the groups it never set. */
export function settingsValuesOf(settings: StoreSettings): EditableSettingsValues {
  return {
    capabilities: { capabilities: settings.capabilities, credit: settings.credit, returns: settings.returns },
    fulfillment: { claimWaitDays: settings.claimWaitDays, claimWindowDays: settings.claimWindowDays },
    'one-time-appeasements': { allowOneTimeAppeasement: settings.allowOneTimeAppeasement },
    'replacement-cost': { ...DEFAULT_MONEY_RULES, ...settings.moneyRules },
    'rev-share': settings.revShare ?? SETTINGS_DEFAULTS.revShare,
    'claim-acknowledgment': settings.claimAcknowledgment ?? SETTINGS_DEFAULTS.claimAcknowledgment,
    'customer-communication': { sla: { ...SLA_DEFAULTS, ...settings.sla } },
    metadata: { entries: settings.metadata ?? {} },
    widget: settings.widget ?? SETTINGS_DEFAULTS.widget,
    'claim-filing': settings.claimFiling ?? SETTINGS_DEFAULTS.claimFiling,
    policies: settings.policies ?? SETTINGS_DEFAULTS.policies,
    pricing: settings.pricing ?? SETTINGS_DEFAULTS.pricing,
    'quote-pricing': settings.quotePricing ?? SETTINGS_DEFAULTS.quotePricing,
    notifications: settings.notifications ?? SETTINGS_DEFAULTS.notifications,
    contact: settings.contact ?? SETTINGS_DEFAULTS.contact,
  };
}

/** The store's settings with one group replaced by its new value. */
export function withSettingsChange(settings: StoreSettings, change: SettingsChange): StoreSettings {
  switch (change.group) {
    case 'capabilities':
      return { ...settings, ...change.value };
    case 'fulfillment':
      return { ...settings, ...change.value };
    case 'one-time-appeasements':
      return { ...settings, ...change.value };
    case 'replacement-cost':
      return { ...settings, moneyRules: { ...settings.moneyRules, ...change.value } };
    case 'rev-share':
      return { ...settings, revShare: change.value };
    case 'claim-acknowledgment':
      return { ...settings, claimAcknowledgment: change.value };
    case 'customer-communication':
      return { ...settings, sla: change.value.sla };
    case 'metadata':
      return { ...settings, metadata: change.value.entries };
    case 'widget':
      return { ...settings, widget: change.value };
    case 'claim-filing':
      return { ...settings, claimFiling: change.value };
    case 'policies':
      return { ...settings, policies: change.value };
    case 'pricing':
      return { ...settings, pricing: change.value };
    case 'quote-pricing':
      return { ...settings, quotePricing: change.value };
    case 'notifications':
      return { ...settings, notifications: change.value };
    case 'contact':
      return { ...settings, contact: change.value };
    default: {
      const exhaustive: never = change;
      return exhaustive;
    }
  }
}
