import {
  DEFAULT_MONEY_RULES,
  ResolutionReason,
  toDecimal,
  toMinor,
  type AdminClaimDetail,
  type ClaimFacts,
  type ResolutionLineInput,
  type ResolutionType,
  type ResolveClaimRequest,
} from '@claims/contracts';
import { storeCreditOf } from '@claims/domain';
import { estimateLine } from './resolutionSummary.js';

type Item = AdminClaimDetail['items'][number];
export type DecisionTerms = ClaimFacts['decisionTerms'];

/** One undecided item as the agent edits it; an empty type leaves the item for a later pass. */
export interface ItemDraft {
  type: ResolutionType | '';
  quantity: string;
  percentage: string;
  amount: string;
  reason: string;
}

/** Which inputs a decision takes: the items' value (quantity, and a share of it) or an amount of its own. */
export const usesQuantity = (type: ResolutionType | '') =>
  type === 'REFUND' || type === 'RESHIP' || type === 'STORE_CREDIT';
export const usesPercentage = (type: ResolutionType | '') => type === 'REFUND' || type === 'STORE_CREDIT';
export const usesAmount = (type: ResolutionType | '') => type === 'FLAT_RATE' || type === 'CUSTOM';

export const emptyDraft = (item: Item, type: ResolutionType | '' = '', reason = ''): ItemDraft => ({
  type,
  quantity: String(item.quantity),
  percentage: '100',
  amount: '',
  reason,
});

/** A line ready to send, what it is worth to the shopper (claim's currency, decimals) and any store-credit bonus. */
export interface PlannedLine {
  item: Item;
  input: ResolutionLineInput;
  type: ResolutionType;
  quantity: number;
  value: number;
  bonus: number;
}

/** The bonus the store adds to `value` of store credit, as the server will value it (docs/product.md#store-credit-bonus, `storeCreditOf`). */
export function creditBonus(value: number, currency: string, terms: DecisionTerms): number {
  const line = {
    id: '00000000-0000-4000-8000-000000000000',
    relatedClaimItemId: null,
    resolutionType: 'STORE_CREDIT' as const,
    reason: null,
    resolutionDescription: '',
    quantity: 0,
    percentage: null,
    paidValue: toMinor(value, currency),
    shippingAmount: 0,
    creditStore: false,
    final: true,
    resolvedBy: { type: 'user', id: '', name: '' },
    createdAt: new Date(0).toISOString(),
  };
  const valuation = {
    storeCurrency: currency,
    exchangeRate: terms.exchangeRate,
    rules: DEFAULT_MONEY_RULES,
    credit: terms.credit,
  };
  return toDecimal(storeCreditOf(line, currency, valuation)?.claim.bonus ?? 0, currency);
}

/** Checks each draft with a decision and turns it into a line; problems are said per item, in words. */
export function planLines(
  items: readonly Item[],
  drafts: Readonly<Record<string, ItemDraft>>,
  currency: string,
  terms: DecisionTerms,
): { lines: PlannedLine[]; problems: string[] } {
  const lines: PlannedLine[] = [];
  const problems: string[] = [];
  for (const item of items) {
    const draft = drafts[item.id];
    if (!draft || draft.type === '') continue;
    const { type } = draft;
    const input: ResolutionLineInput = { claimItemId: item.id, resolutionType: type };
    const reason = ResolutionReason.safeParse(draft.reason);
    if (reason.success) input.reason = reason.data;
    else if (type === 'DENY') problems.push(`${item.name}: choose a reason for the denial.`);
    let quantity = 0;
    let value = 0;
    if (usesQuantity(type)) {
      quantity = Number(draft.quantity);
      if (!Number.isInteger(quantity) || quantity < 1 || quantity > item.quantity) {
        problems.push(`${item.name}: the quantity must be a whole number from 1 to ${item.quantity}.`);
        continue;
      }
      input.quantity = quantity;
      const percentage = usesPercentage(type) ? Number(draft.percentage) : 100;
      if (usesPercentage(type)) {
        if (draft.percentage.trim() === '' || !Number.isFinite(percentage) || percentage <= 0 || percentage > 100) {
          problems.push(`${item.name}: the percentage must be above 0 and at most 100.`);
          continue;
        }
        input.percentage = percentage;
      }
      value = type === 'RESHIP' ? 0 : estimateLine(item, quantity, percentage, currency);
    }
    if (usesAmount(type)) {
      const amount = Number(draft.amount);
      if (draft.amount.trim() === '' || !Number.isFinite(amount) || amount <= 0) {
        problems.push(`${item.name}: enter an amount above 0.`);
        continue;
      }
      input.amount = toDecimal(toMinor(amount, currency), currency);
      value = input.amount;
    }
    const bonus = type === 'STORE_CREDIT' ? creditBonus(value, currency, terms) : 0;
    lines.push({ item, input, type, quantity, value, bonus });
  }
  if (lines.length === 0 && problems.length === 0) problems.push('Choose a decision for at least one item.');
  return { lines, problems };
}

/** What the summary totals, per kind of money (decimals of the claim's currency, summed in minor units). */
export interface PlanTotals {
  refund: number;
  credit: number;
  creditBonus: number;
  flatRate: number;
  custom: number;
  reshipUnits: number;
  denied: number;
  toCustomer: number;
}

export function totalsOf(
  lines: ReadonlyArray<Pick<PlannedLine, 'type' | 'quantity' | 'value' | 'bonus'>>,
  currency: string,
): PlanTotals {
  const minor = { refund: 0, credit: 0, creditBonus: 0, flatRate: 0, custom: 0 };
  let reshipUnits = 0;
  let denied = 0;
  for (const line of lines) {
    const value = toMinor(line.value, currency);
    switch (line.type) {
      case 'REFUND':
        minor.refund += value;
        break;
      case 'STORE_CREDIT':
        minor.credit += value;
        minor.creditBonus += toMinor(line.bonus, currency);
        break;
      case 'FLAT_RATE':
        minor.flatRate += value;
        break;
      case 'CUSTOM':
        minor.custom += value;
        break;
      case 'RESHIP':
        reshipUnits += line.quantity;
        break;
      case 'DENY':
        denied += 1;
        break;
    }
  }
  const decimal = (value: number) => toDecimal(value, currency);
  return {
    refund: decimal(minor.refund),
    credit: decimal(minor.credit),
    creditBonus: decimal(minor.creditBonus),
    flatRate: decimal(minor.flatRate),
    custom: decimal(minor.custom),
    reshipUnits,
    denied,
    toCustomer: decimal(minor.refund + minor.credit + minor.creditBonus + minor.flatRate + minor.custom),
  };
}

/** The request for a pass: each line its own type; the body's type (required by the contract) is the first line's. */
export function requestOf(lines: readonly PlannedLine[], version: number, description: string): ResolveClaimRequest {
  return {
    resolutionType: lines[0]!.type,
    items: lines.map((l) => l.input),
    expectedVersion: version,
    ...(description.trim() ? { description: description.trim() } : {}),
  };
}
