import type { AdminClaimDetail } from '@claims/contracts';
import { formatDateTime, formatMoney } from '@claims/format';
import { Fact } from '../../shared/components/ui.js';
import { FoldingCard } from '../../shared/components/FoldingCard.js';

/**
 * The store credit the claim's STORE_CREDIT resolutions give the shopper, with the store's bonus, in the claim's currency;
 * once a reversal took it back, what it reclaimed and what the customer had redeemed already.
 */
export function StoreCreditSection({ claim }: { claim: AdminClaimDetail }) {
  if (claim.storeCredits.length === 0) return null;
  const lineName = (resolutionId: string) => {
    const itemId = claim.resolutions.find((r) => r.id === resolutionId)?.relatedClaimItemId;
    return itemId ? (claim.items.find((i) => i.id === itemId)?.name ?? 'Item') : 'Whole claim';
  };
  return (
    <FoldingCard title="Store Credit" titleId="store-credit" storageKey="claim:store-credit" defaultOpen>
      {claim.storeCredits.map((credit) => (
        <dl
          key={credit.resolutionId}
          className="facts"
          aria-label={`Store credit for ${lineName(credit.resolutionId)}`}
        >
          {claim.storeCredits.length > 1 ? <Fact term="For">{lineName(credit.resolutionId)}</Fact> : null}
          <Fact term="Credit">{formatMoney(credit.credit, credit.currency)}</Fact>
          <Fact term="Bonus">{formatMoney(credit.bonus, credit.currency)}</Fact>
          <Fact term="Total Store Credit">{formatMoney(credit.total, credit.currency)}</Fact>
          <Fact term="Issued">
            {credit.issuedAt ? (
              <time dateTime={credit.issuedAt}>{formatDateTime(credit.issuedAt)}</time>
            ) : (
              'Not yet: it is issued moments after the decision.'
            )}
          </Fact>
          {credit.reclaimed ? (
            <>
              <Fact term="Reclaimed on reversal">
                {formatMoney(credit.reclaimed.amount, credit.reclaimed.currency)} (
                <time dateTime={credit.reclaimed.at}>{formatDateTime(credit.reclaimed.at)}</time>)
              </Fact>
              <Fact term="Already redeemed, kept by the customer">
                {formatMoney(credit.reclaimed.redeemed, credit.reclaimed.currency)}
              </Fact>
            </>
          ) : null}
        </dl>
      ))}
    </FoldingCard>
  );
}
