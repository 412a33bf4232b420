/**
 * Where a carrier shows a parcel, `{number}` standing for its tracking number (URL-encoded). docs/product.md#tracking-links once said "a default
 * tracking base followed by /{trackingNumber}"; most carriers take the number in a query instead, so each known
 * carrier has a template (docs/decisions/tracking-links.md). Keys are carrier names as shops write them,
 * lower-cased without spaces or punctuation (see `carrierKey`).
 */
/** Carriers that share a tracking page: DHL's express tracker serves plain "DHL"; La Poste's serves Colissimo. */
const DHL_EXPRESS_TRACKING =
  'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id={number}';
const LA_POSTE_TRACKING = 'https://www.laposte.fr/outils/suivre-vos-envois?code={number}';

export const CARRIER_TRACKING_URLS: Readonly<Record<string, { name: string; template: string }>> = {
  ups: { name: 'UPS', template: 'https://www.ups.com/track?tracknum={number}' },
  usps: { name: 'USPS', template: 'https://tools.usps.com/go/TrackConfirmAction?tLabels={number}' },
  fedex: { name: 'FedEx', template: 'https://www.fedex.com/fedextrack/?trknbr={number}' },
  dhl: { name: 'DHL', template: DHL_EXPRESS_TRACKING },
  dhlexpress: { name: 'DHL Express', template: DHL_EXPRESS_TRACKING },
  canadapost: {
    name: 'Canada Post',
    template: 'https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor={number}',
  },
  royalmail: { name: 'Royal Mail', template: 'https://www.royalmail.com/track-your-item#/tracking-results/{number}' },
  japanpost: {
    name: 'Japan Post',
    template: 'https://trackings.post.japanpost.jp/services/srv/search/direct?reqCodeNo1={number}&locale=en',
  },
  australiapost: { name: 'Australia Post', template: 'https://auspost.com.au/mypost/track/details/{number}' },
  purolator: { name: 'Purolator', template: 'https://www.purolator.com/en/shipping/tracker?pin={number}' },
  laposte: { name: 'La Poste', template: LA_POSTE_TRACKING },
  colissimo: { name: 'Colissimo', template: LA_POSTE_TRACKING },
  ontrac: { name: 'OnTrac', template: 'https://www.ontrac.com/tracking/?number={number}' },
};

/** A carrier name as the table keys it: "Canada Post", "canada-post" and "CANADA_POST" are one carrier. */
export const carrierKey = (carrier: string): string => carrier.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A supplied URL is a link only when it is a web address: an order's data must never put `javascript:` in an href. */
function webUrl(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** One tracking number of a shipment and where to follow it (null: show the number as text). */
export interface TrackingLink {
  number: string | null;
  url: string | null;
}

/**
 * The tracking links of a shipment (docs/product.md#tracking-links): the URL the store supplied for a number, else the carrier's page from
 * `CARRIER_TRACKING_URLS`, else none (the number as text). Numbers and URLs pair by position; a URL without a
 * number is still a link.
 */
export function trackingLinksOf(shipment: {
  trackingCompany: string | null;
  trackingNumbers: readonly string[];
  trackingUrls: readonly string[];
}): TrackingLink[] {
  const carrier = shipment.trackingCompany ? CARRIER_TRACKING_URLS[carrierKey(shipment.trackingCompany)] : undefined;
  const count = Math.max(shipment.trackingNumbers.length, shipment.trackingUrls.length);
  const links: TrackingLink[] = [];
  for (let i = 0; i < count; i++) {
    const number = shipment.trackingNumbers[i]?.trim() || null;
    const supplied = webUrl(shipment.trackingUrls[i]);
    const url =
      supplied ?? (number && carrier ? carrier.template.replace('{number}', encodeURIComponent(number)) : null);
    if (number || url) links.push({ number, url });
  }
  return links;
}
