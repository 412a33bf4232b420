import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { RECENT_CLAIMS_DAYS, type AdminClaimDetail, type ClaimFacts } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDate, formatDateTime, formatMoney, humanizeCode, pluralize } from '@claims/format';
import { Alert, ColumnHeads, TrackingLinks } from '@claims/ui/components';
import { Fact } from '../../shared/components/ui.js';
import { resolutionTypeLabel } from '../../shared/labels.js';
import './decision.css';
import { claimQueries } from '../queries.js';
import { RiskPanel, RuleActivityPanel } from './RiskAndRules.js';
import { FoldingCard } from '../../shared/components/FoldingCard.js';
import { AddressBlock } from './AddressBlock.js';

/** The order: when placed, where it was shipped (and where the shopper asked it go now), each shipment with carrier, tracking and dates. */
function OrderPanel({ facts }: { facts: ClaimFacts }) {
  const { order } = facts;
  return (
    <FoldingCard title="Order and shipping" titleId="order-facts" storageKey="claim:order-facts" defaultOpen>
      {order ? (
        <>
          <dl className="facts">
            <Fact term="Order">#{order.orderNumber}</Fact>
            <Fact term="Placed">
              <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
            </Fact>
            <Fact term="Shipping address">
              <AddressBlock withPhone address={order.shippingAddress} />
            </Fact>
            <Fact term="Updated address (asked by the shopper)">
              {facts.updatedShippingAddress ? (
                <AddressBlock withPhone address={facts.updatedShippingAddress} />
              ) : (
                'None'
              )}
            </Fact>
          </dl>
          {order.fulfillments.length > 0 ? (
            <div className="table-scroll">
              <table className="lines">
                <caption>Shipments</caption>
                <ColumnHeads columns={['Shipment', 'Status', 'Carrier and tracking', 'Shipped', 'Delivered']} />
                <tbody>
                  {order.fulfillments.map((f) => (
                    <tr key={f.sourceFulfillmentId}>
                      <th scope="row">
                        {f.sourceFulfillmentId}
                        {f.claimed ? <span className="muted"> (claimed)</span> : null}
                      </th>
                      <td>{humanizeCode(f.status)}</td>
                      <td>
                        {f.trackingNumbers.length + f.trackingUrls.length > 0 ? (
                          <TrackingLinks shipment={f} />
                        ) : (
                          (f.trackingCompany ?? 'No tracking')
                        )}
                      </td>
                      <td>{f.shippedAt ? <time dateTime={f.shippedAt}>{formatDate(f.shippedAt)}</time> : '—'}</td>
                      <td>
                        {f.deliveredAt ? (
                          <time dateTime={f.deliveredAt}>{formatDate(f.deliveredAt)}</time>
                        ) : (
                          'Not delivered'
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="muted">The order has no shipments.</p>
          )}
        </>
      ) : (
        <p className="muted">The order is no longer on file.</p>
      )}
    </FoldingCard>
  );
}

/** What the shopper signed with: the drawn signature as an image, or the typed name. */
function SignaturePanel({ facts, customer }: { facts: ClaimFacts; customer: string }) {
  const { signature } = facts;
  return (
    <FoldingCard title="Signature" titleId="signature" storageKey="claim:signature" defaultOpen>
      {signature ? (
        <figure className="signature">
          {signature.kind === 'drawn' ? (
            <img src={signature.value} alt={`Signature drawn by ${customer}`} className="signature-image" />
          ) : (
            <p className="signature-typed">{signature.value}</p>
          )}
          <figcaption className="muted">
            {signature.kind === 'drawn' ? 'Drawn' : 'Typed'} · signed{' '}
            <time dateTime={signature.signedAt}>{formatDateTime(signature.signedAt)}</time>
          </figcaption>
        </figure>
      ) : (
        <p className="muted">No signature on file.</p>
      )}
    </FoldingCard>
  );
}

/** Warnings worth a second look before deciding: a frequent claimer, a photo already used on another claim. */
function FlagsPanel({ facts }: { facts: ClaimFacts }) {
  const { recentClaimsByEmail, reusedPhotos } = facts.flags;
  const frequent = recentClaimsByEmail > 1;
  return (
    <FoldingCard title="Flags" titleId="flags" storageKey="claim:flags" defaultOpen>
      <ul className="plain flags">
        <li className={frequent ? 'flag flag-raised' : 'flag'}>
          {pluralize(recentClaimsByEmail, 'claim')} by this email in the last {RECENT_CLAIMS_DAYS} days
        </li>
        {reusedPhotos.length === 0 ? (
          <li className="flag">No photo used on another claim</li>
        ) : (
          reusedPhotos.map((photo) => (
            <li key={`${photo.url}:${photo.otherClaimId}`} className="flag flag-raised">
              <a href={photo.url} target="_blank" rel="noopener noreferrer">
                A photo<span className="visually-hidden"> (opens in a new tab)</span>
              </a>{' '}
              is identical to one on{' '}
              <Link to="/claims/view/$claimRef" params={{ claimRef: photo.otherClaimId }} search={{}}>
                claim #{photo.otherClaimNumber}
              </Link>
            </li>
          ))
        )}
      </ul>
    </FoldingCard>
  );
}

/** The shopper's other claims (stores the agent may read) and how each ended. */
function OtherClaimsPanel({ facts }: { facts: ClaimFacts }) {
  return (
    <FoldingCard title="The customer's other claims" titleId="other-claims" storageKey="claim:other-claims" defaultOpen>
      {facts.otherClaims.length === 0 ? (
        <p className="muted">No other claims.</p>
      ) : (
        <div className="table-scroll">
          <table className="lines">
            <caption className="visually-hidden">Other claims, newest first</caption>
            <ColumnHeads columns={['Claim', 'Filed', 'Value', 'Outcome']} />
            <tbody>
              {facts.otherClaims.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    <Link to="/claims/view/$claimRef" params={{ claimRef: c.id }} search={{}}>
                      #{c.claimNumber}
                    </Link>
                  </th>
                  <td>
                    <time dateTime={c.createdAt}>{formatDate(c.createdAt)}</time>
                  </td>
                  <td>{formatMoney(c.claimedValue, c.currency)}</td>
                  <td>
                    {c.statusLabel}
                    {c.resolutionType ? ` · ${resolutionTypeLabel(c.resolutionType)}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </FoldingCard>
  );
}

/** The facts to decide with, beside the claim: its risk, what rules did, order and shipping, signature, flags and the customer's history. */
export function ClaimFactsPanels({ claim }: { claim: AdminClaimDetail }) {
  const facts = useQuery(claimQueries.facts(claim.id));
  return (
    <>
      <RiskPanel claim={claim} />
      <RuleActivityPanel claimId={claim.id} />
      {facts.isPending ? (
        <p className="muted" role="status">
          Loading the order and the customer's history…
        </p>
      ) : facts.isError ? (
        <Alert>The order and the customer's history could not be loaded: {errorText(facts.error)}</Alert>
      ) : (
        <>
          <FlagsPanel facts={facts.data} />
          <OrderPanel facts={facts.data} />
          <SignaturePanel facts={facts.data} customer={claim.customer.name} />
          <OtherClaimsPanel facts={facts.data} />
        </>
      )}
    </>
  );
}
