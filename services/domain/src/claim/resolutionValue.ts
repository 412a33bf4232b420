import type { ClaimItem } from '@claims/contracts';

/**
 * What `quantity` units of a claimed line are worth to the shopper, in minor units: the unit price
 * less its share of the line discount, plus its share of the line tax.
 */
export function lineValue(
  item: Pick<ClaimItem, 'price' | 'discount' | 'tax' | 'orderedQuantity'>,
  quantity: number,
): number {
  const perUnitDiscountAndTax = (item.tax - item.discount) / item.orderedQuantity;
  return Math.round(quantity * (item.price + perUnitDiscountAndTax));
}

/** A percentage of a value in minor units, rounded half up. */
export const percentOf = (value: number, percentage: number): number => Math.round((value * percentage) / 100);
