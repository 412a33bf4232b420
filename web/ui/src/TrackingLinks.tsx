import { trackingLinksOf } from '@claims/domain';

/**
 * A shipment's tracking numbers (docs/product.md#tracking-links): each a link to the store's tracking URL or the carrier's page, opening in a
 * new tab (said to screen readers), or the number as text when no page is known.
 */
export function TrackingLinks({
  shipment,
}: {
  shipment: { trackingCompany: string | null; trackingNumbers: readonly string[]; trackingUrls: readonly string[] };
}) {
  const links = trackingLinksOf(shipment);
  if (links.length === 0) return null;
  return (
    <span className="tracking">
      {shipment.trackingCompany ? `${shipment.trackingCompany} ` : ''}
      {links.map((link, index) => (
        <span key={`${index}:${link.number ?? link.url}`}>
          {index > 0 ? ', ' : null}
          {link.url ? (
            <a href={link.url} target="_blank" rel="noopener noreferrer">
              {link.number ?? 'Track shipment'}
              <span className="visually-hidden"> (tracking, opens in a new tab)</span>
            </a>
          ) : (
            link.number
          )}
        </span>
      ))}
    </span>
  );
}
