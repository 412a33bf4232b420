import { useId } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { storesWith, useMe } from '../shared/session.js';
import { StoreSelect } from '../shared/components/StorePicker.js';
import { Stars } from './reviews/Stars.js';
import { reviewQueries } from './queries.js';
import { DataTable } from '../shared/components/DataTable.js';

export const ReviewsSearch = z.object({
  store: z.uuid().optional().catch(undefined),
  rating: z.coerce.number().int().min(1).max(5).optional().catch(undefined),
});

/** `/admin/reviews`: the newest shoppers' reviews of the user's stores, by store and rating. */
export function ReviewsPage() {
  const id = useId();
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/reviews' });
  const stores = storesWith(me, 'reviews:read');
  const store = stores.some((s) => s.id === search.store) ? search.store : undefined;
  const reviews = useQuery(reviewQueries.list({ store, rating: search.rating }));
  const filter = (next: { store?: string | undefined; rating?: number | undefined }) =>
    void navigate({ to: '/reviews', search: next, replace: true });
  const list = reviews.data?.data ?? [];
  return (
    <Page title="Reviews">
      <form className="inline-form" aria-label="Filter the reviews" onSubmit={(e) => e.preventDefault()}>
        {stores.length > 1 ? (
          <StoreSelect
            stores={stores}
            value={store ?? ''}
            onChange={(next) => filter({ store: next || undefined, rating: search.rating })}
            anyStore="Every store"
          />
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-rating`}>Rating</label>
          <select
            id={`${id}-rating`}
            value={search.rating ?? ''}
            onChange={(e) => filter({ store, rating: e.target.value ? Number(e.target.value) : undefined })}
          >
            <option value="">Every rating</option>
            {[5, 4, 3, 2, 1].map((r) => (
              <option key={r} value={r}>
                {r} of 5 stars
              </option>
            ))}
          </select>
        </div>
      </form>
      {reviews.isPending ? (
        <p className="muted" role="status">
          Loading the reviews…
        </p>
      ) : null}
      {reviews.isError ? <Alert>The reviews could not be loaded: {errorText(reviews.error)}</Alert> : null}
      {reviews.isSuccess && list.length === 0 ? <p className="muted">No reviews match.</p> : null}
      {list.length > 0 ? (
        <DataTable caption="Reviews" captionHidden columns={['Claim', 'Store', 'Customer', 'Rating', 'Review', 'Left']}>
          <tbody>
            {list.map((review) => (
              <tr key={review.id}>
                <th scope="row">
                  <Link to="/claims/view/$claimRef" params={{ claimRef: review.claimId }} search={{}}>
                    #{review.claimNumber}
                  </Link>
                </th>
                <td>{review.store.name}</td>
                <td>{review.customerName}</td>
                <td>
                  <Stars rating={review.rating} />
                </td>
                <td>{review.text || <span className="muted">(no text)</span>}</td>
                <td>
                  <time dateTime={review.createdAt}>{formatDateTime(review.createdAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : null}
    </Page>
  );
}
