import { useQuery } from '@tanstack/react-query';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert } from '@claims/ui/components';
import { Stars } from './Stars.js';
import { reviewQueries } from '../queries.js';
import { FoldingCard } from '../../shared/components/FoldingCard.js';

/** The shopper's review of this claim (rating and text), shown once they left one. */
export function ReviewSection({ claimId }: { claimId: string }) {
  const reviews = useQuery(reviewQueries.ofClaim(claimId));
  return (
    <FoldingCard title="Customer review" titleId="claim-review" storageKey="claim:claim-review" defaultOpen>
      {reviews.isPending ? <p className="muted">Loading the review…</p> : null}
      {reviews.isError ? <Alert>The review could not be loaded: {errorText(reviews.error)}</Alert> : null}
      {reviews.data?.data.length === 0 ? <p className="muted">The customer has not reviewed this claim.</p> : null}
      {reviews.data?.data.map((review) => (
        <figure key={review.id} className="review">
          <Stars rating={review.rating} />
          {review.text ? <blockquote className="note-body">{review.text}</blockquote> : null}
          <figcaption className="muted">
            <time dateTime={review.createdAt}>{formatDateTime(review.createdAt)}</time>
          </figcaption>
        </figure>
      ))}
    </FoldingCard>
  );
}
