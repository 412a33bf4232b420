/** An item's resolution as an agent edits it before resolving (docs/product.md#claim-records). */
export interface ItemResolutionDraft {
  resolutionFinal: boolean;
  resolutionQuantity: number | null;
  resolutionPercentage: number;
  quantityType: 'all' | 'partial' | null;
}

/** Clearing the final flag resets quantity to none, percentage to 0 and quantity type to none. */
export function setResolutionFinal(draft: ItemResolutionDraft, final: boolean): ItemResolutionDraft {
  return final
    ? { ...draft, resolutionFinal: true }
    : { resolutionFinal: false, resolutionQuantity: null, resolutionPercentage: 0, quantityType: null };
}

/** A quantity of 0 or less is stored as none. */
export function setResolutionQuantity(draft: ItemResolutionDraft, quantity: number): ItemResolutionDraft {
  return { ...draft, resolutionQuantity: quantity <= 0 ? null : quantity };
}
