import type { EditableSettingsGroup, SettingsScalar } from '@claims/contracts';

/**
 * The form of each editable settings group: one entry per field, by its path in the group's value.
 * A switch may drive several paths at once (the store-credit switch is `capabilities.credit` and
 * `credit.enabled`, which the API keeps equal).
 */
export type SettingsField =
  | { kind: 'switch'; paths: readonly string[]; label: string; hint?: string }
  | {
      kind: 'number';
      path: string;
      label: string;
      min: number;
      max: number;
      step: number;
      hint?: string;
      /** Left empty, the field is unset (the rule's default applies) rather than refused. */
      optional?: true;
    }
  | { kind: 'select'; path: string; label: string; options: ReadonlyArray<{ value: string; label: string }> }
  | { kind: 'url'; path: string; label: string; hint?: string }
  | { kind: 'text'; path: string; label: string; hint?: string }
  /** One line that may be left empty (stored as none). */
  | { kind: 'line'; path: string; label: string; inputType: 'email' | 'tel'; hint?: string };

export const SETTINGS_FIELDS: Readonly<Record<Exclude<EditableSettingsGroup, 'metadata'>, readonly SettingsField[]>> = {
  capabilities: [
    {
      kind: 'switch',
      paths: ['capabilities.refund'],
      label: 'Refund',
      hint: 'Shoppers may ask for a refund; claims may be resolved with one.',
    },
    { kind: 'switch', paths: ['capabilities.reship'], label: 'Reship', hint: 'Shoppers may ask for a reshipment.' },
    {
      kind: 'switch',
      paths: ['capabilities.credit', 'credit.enabled'],
      label: 'Store credit',
      hint: 'Shoppers may ask for store credit.',
    },
    {
      kind: 'number',
      path: 'credit.bonus',
      label: 'Store-credit bonus',
      min: 0,
      max: 1_000_000,
      step: 0.01,
      hint: "Added to the credit: a percentage of it, or a fixed amount in the store's currency.",
    },
    {
      kind: 'select',
      path: 'credit.bonusType',
      label: 'Bonus type',
      options: [
        { value: 'percentage', label: 'Percentage' },
        { value: 'fixed', label: 'Fixed amount' },
      ],
    },
    {
      kind: 'switch',
      paths: ['capabilities.returns'],
      label: 'Returns',
      hint: 'Shoppers are sent to the returns portal.',
    },
    { kind: 'url', path: 'returns.portalUrl', label: 'Returns portal address', hint: 'Needed when returns are on.' },
    { kind: 'url', path: 'returns.trackingUrl', label: 'Returns tracking address' },
  ],
  fulfillment: [
    {
      kind: 'number',
      path: 'claimWaitDays',
      label: 'Waiting period (days after delivery)',
      min: 0,
      max: 365,
      step: 1,
      hint: 'A delivered parcel can be claimed from this many days after delivery.',
    },
    {
      kind: 'number',
      path: 'claimWindowDays',
      label: 'Claim window (days after delivery)',
      min: 1,
      max: 3_650,
      step: 1,
      hint: 'After this many days a claim is too late.',
    },
  ],
  'one-time-appeasements': [
    {
      kind: 'switch',
      paths: ['allowOneTimeAppeasement'],
      label: 'Allow one claim on an unprotected order',
      hint: 'Once per order, marked as a one-time appeasement (ota).',
    },
  ],
  'replacement-cost': [
    {
      kind: 'number',
      path: 'replacementCostPercent',
      label: "Replacement cost (% of the items' value)",
      min: 0,
      max: 1_000,
      step: 0.01,
      hint: 'What a reshipment is owed to the store.',
    },
    {
      kind: 'number',
      path: 'claimCeiling',
      label: 'Most one claim may pay out (store currency)',
      min: 0,
      max: 1_000_000_000,
      step: 0.01,
      hint: 'Decisions above it are refused. Empty: 5,000, or 500,000 in a currency without cents such as yen.',
      optional: true,
    },
  ],
  'rev-share': [
    {
      kind: 'number',
      path: 'merchantSharePercent',
      label: 'Merchant share of premiums (%)',
      min: 0,
      max: 100,
      step: 0.01,
    },
  ],
  'claim-acknowledgment': [
    { kind: 'switch', paths: ['enabled'], label: 'Acknowledge received claims with a message' },
    { kind: 'text', path: 'message', label: 'Acknowledgment message', hint: 'At most 2,000 characters.' },
  ],
  'customer-communication': [
    { kind: 'switch', paths: ['sla.enabled'], label: 'SLA timers on' },
    {
      kind: 'number',
      path: 'sla.waitingForCustomerDays',
      label: 'Close after waiting for the customer (days)',
      min: 1,
      max: 365,
      step: 1,
    },
    {
      kind: 'number',
      path: 'sla.waitingForBrandHours',
      label: 'Escalate after waiting for the brand (hours)',
      min: 1,
      max: 2_160,
      step: 1,
    },
  ],
  widget: [
    { kind: 'switch', paths: ['enabled'], label: 'Protection widget on' },
    { kind: 'switch', paths: ['defaultProtected'], label: 'Protection selected by default' },
  ],
  'claim-filing': [
    {
      kind: 'switch',
      paths: ['acceptingClaims'],
      label: 'Shoppers may file claims online',
      hint: 'Off: the portal refuses new claims and asks shoppers to contact the store.',
    },
    { kind: 'switch', paths: ['photosRequired'], label: 'Require a photo of damaged, defective or wrong items' },
  ],
  policies: [
    { kind: 'url', path: 'termsUrl', label: 'Terms of service address' },
    { kind: 'url', path: 'privacyUrl', label: 'Privacy policy address' },
    { kind: 'url', path: 'protectionTermsUrl', label: 'Protection terms address' },
  ],
  pricing: [
    {
      kind: 'number',
      path: 'premiumPercent',
      label: "Premium (% of a protected order's value)",
      min: 0,
      max: 100,
      step: 0.01,
    },
  ],
  'quote-pricing': [
    { kind: 'number', path: 'quotePercent', label: 'Quoted rate at checkout (%)', min: 0, max: 100, step: 0.01 },
  ],
  notifications: [
    {
      kind: 'line',
      inputType: 'email',
      path: 'replyToEmail',
      label: 'Reply-to address for mail to shoppers',
      hint: 'Leave empty to receive replies in the claim desk only.',
    },
  ],
  contact: [
    { kind: 'line', inputType: 'email', path: 'supportEmail', label: 'Support email' },
    { kind: 'line', inputType: 'tel', path: 'supportPhone', label: 'Support phone' },
  ],
};

/** A field's label for the history, by its path; metadata keys and unknown paths read as themselves. */
export function fieldLabel(group: EditableSettingsGroup, path: string): string {
  if (group === 'metadata') return path.replace(/^entries\./, '');
  const field = SETTINGS_FIELDS[group].find((f) => (f.kind === 'switch' ? f.paths.includes(path) : f.path === path));
  return field?.label ?? path;
}

/** A stored value as people read it. */
export function displayScalar(value: SettingsScalar | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'On' : 'Off';
  return String(value);
}

/** The value at a dotted path of a JSON object. */
export function valueAt(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      value,
    );
}

/** A copy of `value` with `path` set (intermediate objects copied, never shared). */
export function withValueAt(value: unknown, path: string, next: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  const node: Record<string, unknown> =
    value !== null && typeof value === 'object' ? { ...(value as Record<string, unknown>) } : {};
  node[head!] = rest.length === 0 ? next : withValueAt(node[head!], rest.join('.'), next);
  return node;
}
