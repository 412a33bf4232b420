import {
  CUSTOMER_RESOLUTION_LABELS,
  ITEM_ISSUE_LABELS,
  MIXED_RESOLUTION,
  RESOLUTION_REASON_LABELS,
  SHIPMENT_ISSUE_LABELS,
  type ResolutionType,
} from '@claims/contracts';
import { humanizeCode } from '@claims/format';

const TYPE_LABELS: Record<string, string> = {
  ...SHIPMENT_ISSUE_LABELS,
  ...ITEM_ISSUE_LABELS,
  MULTIPLE: 'Multiple issues',
};

/** A claim type's label (the labels of docs/product.md#claim-types where given, else the humanised code). */
export const claimTypeLabel = (code: string): string => TYPE_LABELS[code] ?? humanizeCode(code);

/** Back-office resolution kinds, plus DENY (docs/product.md#resolutions). */
export const RESOLUTION_TYPE_LABELS: Record<ResolutionType, string> = {
  REFUND: 'Refund',
  RESHIP: 'Reship',
  STORE_CREDIT: 'Store Credit',
  FLAT_RATE: 'Flat Rate',
  CUSTOM: 'Custom',
  DENY: 'Deny',
};

export const resolutionTypeLabel = (code: string | null): string =>
  code ? ((RESOLUTION_TYPE_LABELS as Record<string, string>)[code] ?? humanizeCode(code)) : '';

/** The shopper's requested resolution (docs/product.md#requested-resolution; 'Mixed' when items disagree). */
export const requestedResolutionLabel = (code: string): string =>
  code === MIXED_RESOLUTION
    ? 'Mixed'
    : ((CUSTOMER_RESOLUTION_LABELS as Record<string, string>)[code] ?? humanizeCode(code));

export const reasonLabel = (code: string | null): string =>
  code ? ((RESOLUTION_REASON_LABELS as Record<string, string>)[code] ?? humanizeCode(code)) : '';
