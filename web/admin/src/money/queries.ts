import { queryOptions } from '@tanstack/react-query';
import { billingApi } from '../shared/api.js';
import { financeApi, type FinancePeriod } from './finance/financeApi.js';
import { storeCreditApi } from './store-credit/storeCreditApi.js';

/*
 * The money feature's reads (finance, invoices, payment methods, store credit), each key written here once: a change
 * invalidates or sets the cache through the same factories.
 */

/** Every period's payout entries: a batch changes the status of the entries it gathers. */
const PAYOUT_ENTRIES = ['payout-entries'] as const;

export const financeQueries = {
  payoutEntries: {
    all: () => PAYOUT_ENTRIES,
    of: (storeId: string | undefined, period: Required<FinancePeriod>) =>
      queryOptions({
        queryKey: [...PAYOUT_ENTRIES, storeId ?? null, period.from, period.to],
        queryFn: () => financeApi.payoutEntries(storeId, period),
      }),
  },
  payoutBatches: (storeId: string) =>
    queryOptions({ queryKey: ['payout-batches', storeId], queryFn: () => financeApi.payoutBatches(storeId) }),
  /** Each month's totals from the month starting at `from` through now (the moment of the read, so not in the key). */
  monthlyTotals: (storeId: string | undefined, from: string) =>
    queryOptions({
      queryKey: ['finance-monthly', storeId ?? null, from],
      queryFn: () => financeApi.monthlyTotals(storeId, { from, to: new Date().toISOString() }),
    }),
  replay: (replayId: string) =>
    queryOptions({ queryKey: ['finance-replay', replayId], queryFn: () => financeApi.replay(replayId) }),
};

export const invoiceQueries = {
  list: (storeId: string) =>
    queryOptions({ queryKey: ['invoices', storeId], queryFn: () => billingApi.invoices(storeId) }),
  detail: (invoiceId: string) =>
    queryOptions({ queryKey: ['invoice', invoiceId], queryFn: () => billingApi.invoice(invoiceId) }),
  /** Every month's draft of a store: issuing one invoice changes what the ledger still owes. */
  drafts: (storeId: string) => ['invoice-draft', storeId] as const,
  draft: (storeId: string, month: string) =>
    queryOptions({ queryKey: ['invoice-draft', storeId, month], queryFn: () => billingApi.draft(storeId, month) }),
};

export const paymentMethodQueries = {
  of: (storeId: string) =>
    queryOptions({ queryKey: ['payment-methods', storeId], queryFn: () => billingApi.methods(storeId) }),
};

export const storeCreditQueries = {
  balances: (storeId: string) =>
    queryOptions({ queryKey: ['store-credit', storeId], queryFn: () => storeCreditApi.balances(storeId) }),
  /** Any customer's ledger by email (case does not matter), also one with no credit yet. */
  ledger: (storeId: string, email: string) =>
    queryOptions({
      queryKey: ['store-credit-ledger', storeId, email.toLowerCase()],
      queryFn: () => storeCreditApi.ledger(storeId, email),
    }),
};
