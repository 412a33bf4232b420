import { useState } from 'react';
import { CUSTOMER_RESOLUTION_LABELS, type AdminClaimDetail } from '@claims/contracts';
import { formatDateTime, formatItemMoney, formatMoney, formatSubtotal, stripHtml } from '@claims/format';
import { Lightbox } from '@claims/ui/lightbox';
import { Fact } from '../../shared/components/ui.js';
import { claimTypeLabel, reasonLabel, requestedResolutionLabel, resolutionTypeLabel } from '../../shared/labels.js';
import { summarizeResolutions } from './resolutionSummary.js';
import { FoldingCard } from '../../shared/components/FoldingCard.js';
import { AddressBlock } from './AddressBlock.js';

/** 'Customer Claim' (docs/product.md#merchant-claim-view). */
export function CustomerClaimSection({ claim }: { claim: AdminClaimDetail }) {
  return (
    <FoldingCard title="Customer Claim" titleId="customer-claim" storageKey="claim:customer-claim" defaultOpen>
      <dl className="facts">
        <Fact term="Claim ID">#{claim.claimNumber}</Fact>
        <Fact term="Order ID">
          #{claim.orderNumber} <span className="muted">({claim.sourceOrderId})</span>
        </Fact>
        <Fact term="Filed On">
          <time dateTime={claim.createdAt}>{formatDateTime(claim.createdAt)}</time>
        </Fact>
        <Fact term="Requested Resolution">{requestedResolutionLabel(claim.requestedResolution)}</Fact>
        <Fact term="Shipping Address Change">
          {claim.updatedShippingAddress ? <AddressBlock address={claim.updatedShippingAddress} /> : 'None'}
        </Fact>
        <Fact term="Customer">
          {claim.customer.name} <span className="muted">{claim.customer.email}</span>
        </Fact>
        <Fact term="Store">{claim.store.name}</Fact>
        <Fact term="Claim type">{claimTypeLabel(claim.claimType)}</Fact>
        {claim.policy ? (
          <Fact term="Insured amount">{formatMoney(claim.policy.insuredAmount, claim.policy.premiumCurrency)}</Fact>
        ) : null}
      </dl>
    </FoldingCard>
  );
}

/** 'Item Issue(s)' with the photos in the lightbox (docs/product.md#merchant-claim-view). */
export function ItemIssuesSection({ claim }: { claim: AdminClaimDetail }) {
  const [open, setOpen] = useState<{ itemId: string; index: number } | null>(null);
  const openItem = claim.items.find((i) => i.id === open?.itemId);
  return (
    <FoldingCard title="Item Issue(s)" titleId="item-issues" storageKey="claim:item-issues" defaultOpen>
      <ul className="plain item-list">
        {claim.items.map((item) => {
          const options = Object.entries(item.selectedOptions)
            .map(([k, v]) => `${k}: ${v}`)
            .join(', ');
          return (
            <li key={item.id} className="item">
              {item.imageUrl ? (
                <img className="thumb" src={item.imageUrl} alt="" width={56} height={56} />
              ) : (
                <span className="thumb thumb-empty" aria-hidden="true">
                  {item.name.slice(0, 1)}
                </span>
              )}
              <div className="item-body">
                <h3>
                  {item.name} × {item.quantity}
                </h3>
                <p className="muted">
                  SKU {item.sku}
                  {options ? ` · ${options}` : ''} · ordered {item.orderedQuantity}
                </p>
                <dl className="facts facts-compact">
                  <Fact term="Issue">{claimTypeLabel(item.claimType)}</Fact>
                  <Fact term="Requested">{CUSTOMER_RESOLUTION_LABELS[item.resolutionRequested]}</Fact>
                  <Fact term="Price">{formatItemMoney(item.price, claim.currency)}</Fact>
                  <Fact term="Tax">{formatItemMoney(item.tax, claim.currency)}</Fact>
                  {item.discount ? <Fact term="Discount">{formatItemMoney(item.discount, claim.currency)}</Fact> : null}
                  <Fact term="Reimbursable">{item.creditStore ? 'Yes' : 'No'}</Fact>
                </dl>
                {item.details ? <p className="details">{stripHtml(item.details)}</p> : null}
                {item.images.length > 0 ? (
                  <ul className="photos" aria-label={`Photos of ${item.name}`}>
                    {item.images.map((image, index) => (
                      <li key={image.url}>
                        <button
                          type="button"
                          className="photo-button"
                          onClick={() => setOpen({ itemId: item.id, index })}
                        >
                          <img src={image.url} alt={`Photo ${index + 1} of ${item.name}`} width={72} height={72} />
                        </button>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="muted">No photos.</p>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <Lightbox
        images={(openItem?.images ?? []).map((image, index) => ({
          url: image.url,
          alt: `Photo ${index + 1} of ${openItem?.name ?? 'the item'}`,
        }))}
        startIndex={openItem ? open!.index : null}
        title={openItem ? `Photos of ${openItem.name}` : undefined}
        onClose={() => setOpen(null)}
      />
    </FoldingCard>
  );
}

/** 'Resolution Details' (with the money block for a reship or refund) and 'Reshipment (Items)' (docs/product.md#merchant-claim-view). */
export function ResolutionSections({ claim }: { claim: AdminClaimDetail }) {
  const summary = summarizeResolutions(claim);
  const money = (value: number) => formatMoney(value, claim.currency);
  const reshipped = claim.resolutions.filter(
    (r) => r.resolutionType === 'RESHIP' && r.relatedClaimItemId && r.quantity > 0,
  );
  return (
    <>
      <FoldingCard
        title="Resolution Details"
        titleId="resolution-details"
        storageKey="claim:resolution-details"
        defaultOpen
      >
        {summary ? (
          <dl className="facts">
            <Fact term="Resolution Date">
              <time dateTime={summary.date}>{formatDateTime(summary.date)}</time>
            </Fact>
            <Fact term="Provided Resolution">{summary.types.map(resolutionTypeLabel).join(', ')}</Fact>
            {/* "Reimbursed" only when protection pays the store back (a line marked creditStore): a denial moves no money. */}
            {summary.reimbursed ? <Fact term="Reimbursed">Yes</Fact> : null}
            <Fact term="Actioned By">{summary.actionedBy}</Fact>
            {summary.denialReason ? <Fact term="Reason for Denial">{reasonLabel(summary.denialReason)}</Fact> : null}
            {summary.money ? (
              <>
                <Fact term="Shipping">{money(summary.money.shipping)}</Fact>
                <Fact term="Total Value To Customer">{money(summary.money.totalValueToCustomer)}</Fact>
                {summary.money.totalReimbursed > 0 ? (
                  <Fact term="Total Reimbursed">{money(summary.money.totalReimbursed)}</Fact>
                ) : null}
                <Fact term="Items">{formatItemMoney(summary.money.items, claim.currency)}</Fact>
                <Fact term="Taxes">{formatItemMoney(summary.money.taxes, claim.currency)}</Fact>
                <Fact term="Subtotal">{formatSubtotal(summary.money.subtotal, claim.currency)}</Fact>
              </>
            ) : null}
          </dl>
        ) : (
          <p className="muted">Not resolved yet.</p>
        )}
        {claim.resolutions.some((r) => r.resolutionDescription) ? (
          <p className="details">{claim.resolutions.find((r) => r.resolutionDescription)?.resolutionDescription}</p>
        ) : null}
      </FoldingCard>
      <FoldingCard title="Reshipment (Items)" titleId="reshipment" storageKey="claim:reshipment" defaultOpen>
        {reshipped.length > 0 ? (
          <ul className="plain">
            {reshipped.map((line) => {
              const item = claim.items.find((i) => i.id === line.relatedClaimItemId);
              return (
                <li key={line.id}>
                  {item?.name ?? 'Item'} × {line.quantity}
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="muted">No items to reship.</p>
        )}
      </FoldingCard>
    </>
  );
}
