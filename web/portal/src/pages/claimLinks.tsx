import type { FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useMutation } from '@tanstack/react-query';
import { Alert, Page } from '@claims/ui/components';
import { api, isRateLimited, rateLimitedText } from '../api.js';
import { useOrderAndEmail } from '../orderAndEmail.js';

/**
 * /claim-links: a shopper who lost the link to their claim asks for it by order number and email. The links only
 * ever go to the order's email; the page shows the server's answer, which is the same whether anything matched.
 */
export function ClaimLinksPage() {
  const { fields, validated } = useOrderAndEmail();
  const request = useMutation({
    mutationFn: (input: { order: string; email: string }) => api.requestClaimLinks(input),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = validated();
    if (input) request.mutate(input);
  }

  return (
    <Page
      title="Get your claim links"
      subtitle="Enter your order number and email address. We'll email the links to your claims on that order to the order's email address."
    >
      <form className="stack" onSubmit={onSubmit} noValidate>
        {fields}
        <div role="status">
          {request.isSuccess ? <p className="alert alert-success">{request.data.message}</p> : null}
        </div>
        {request.isError ? (
          <Alert>
            {isRateLimited(request.error)
              ? rateLimitedText(request.error)
              : 'Something went wrong while sending your links. Please try again.'}
          </Alert>
        ) : null}
        <button type="submit" className="button button-primary" disabled={request.isPending}>
          {request.isPending ? 'Sending…' : 'Email my claim links'}
        </button>
      </form>
      <p>
        <Link to="/start">File a new claim instead</Link>
      </p>
    </Page>
  );
}
