import { MACRO_PLACEHOLDERS, PLACEHOLDER_PATTERN, type MacroPlaceholder } from './deskTools.js';

/** The values a macro is filled with; a missing value renders as the empty string. */
export type MacroValues = Partial<Record<MacroPlaceholder, string>>;

const KNOWN: ReadonlySet<string> = new Set(MACRO_PLACEHOLDERS);

/**
 * Replaces every `{{ key }}` of a known key with its value in one pass: a value is inserted as
 * written and never scanned again, so a customer named "{{claim.number}}" stays literally that.
 * Unknown keys are left as they are (saving a macro refuses them, so stored macros have none).
 */
export function renderMacro(body: string, values: MacroValues): string {
  return body.replace(PLACEHOLDER_PATTERN, (whole, key: string) =>
    KNOWN.has(key) ? (values[key as MacroPlaceholder] ?? '') : whole,
  );
}

/** The values for one claim. */
export function macroValuesFor(input: {
  customer: { name: string; email: string };
  claimNumber: string;
  statusLabel: string;
  claimType: string;
  orderNumber: string;
  storeName: string;
  agentName: string;
}): Required<MacroValues> {
  const name = input.customer.name.trim();
  return {
    'customer.name': name,
    'customer.firstName': name.split(/\s+/)[0] ?? '',
    'customer.email': input.customer.email,
    'claim.number': input.claimNumber,
    'claim.status': input.statusLabel,
    'claim.type': input.claimType,
    'order.number': input.orderNumber,
    'store.name': input.storeName,
    'agent.name': input.agentName,
  };
}
