import type { Store } from '@claims/contracts';
import { monthPeriod, type InvoiceInputs } from '@claims/domain';
import { periodLedger } from '@claims/projections';
import type { AppContext } from '../context.js';
import { orderRates } from '../catalog/orderRates.js';
import { AppError } from '../platform/errors.js';

/**
 * What a store's invoice for a month is computed from: the month's premiums and payouts in the ledger, the
 * store's currency and `rev-share` setting now. A premium in the order's own currency is converted at the
 * order's exchange rate (as its claims' payouts are); one in any other currency cannot be invoiced.
 */
export async function invoiceInputsOf(ctx: AppContext, store: Store, month: string): Promise<InvoiceInputs> {
  const { start, end } = monthPeriod(month);
  const ledger = await periodLedger(ctx.database.db, store.id, start, end);
  const foreign = ledger.premiums.filter((p) => p.currency !== store.currency);
  const rates = await orderRates(ctx.database.db, [...new Set(foreign.map((p) => p.orderId))]);
  const premiums = ledger.premiums.map((premium) => {
    if (premium.currency === store.currency) return { ...premium, exchangeRate: 1 };
    const order = rates.get(premium.orderId);
    if (order?.currency !== premium.currency) {
      throw new AppError(
        'validation_failed',
        `A premium of ${month} is in ${premium.currency}, neither ${store.name}'s currency (${store.currency}) nor its order's: it cannot be invoiced.`,
      );
    }
    return { ...premium, exchangeRate: order.exchangeRate };
  });
  return {
    currency: store.currency,
    revSharePercent: store.settings.revShare?.merchantSharePercent ?? 0,
    premiums,
    payouts: ledger.payouts,
  };
}
