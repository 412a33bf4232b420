import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMutation } from '@tanstack/react-query';
import { SESSION_STEP_PATHS, type CustomerOrder } from '@claims/contracts';
import { api, HttpError, isRateLimited, rateLimitedText } from '../api.js';
import { Alert, Page } from '@claims/ui/components';
import { useOrderAndEmail } from '../orderAndEmail.js';
import { destinationOf, flowOn, restoreFromSession, setState } from '../claimFlowState.js';

/** Start page no-match alert, word for word (docs/product.md#portal-screens). */
export const NO_MATCH =
  "We couldn't find a match for that order number and email address. Please double-check your order confirmation email to ensure you're using the correct order number and email address for the order.";

export function StartPage() {
  const navigate = useNavigate();
  const { fields, validated } = useOrderAndEmail();
  const [problem, setProblem] = useState<string | null>(null);

  const lookup = useMutation({
    mutationFn: async (input: {
      order: string;
      email: string;
    }): Promise<{ order: CustomerOrder; restored: string | null }> => {
      const order = await api.lookupOrder(input.order, input.email);
      setState({ ...flowOn(order), brandStoreId: null, demo: false });
      let restored: string | null = null;
      if (!order.hasDraft) return { order, restored };
      try {
        const session = await api.getSession(order.systemOrderId, order.customerEmail);
        setState({ sessionId: session.id });
        if (
          restoreFromSession(session, order) &&
          session.status &&
          session.status !== 'SUBMITTED' &&
          session.status !== 'ORDER_FOUND'
        ) {
          restored = SESSION_STEP_PATHS[session.status];
        }
      } catch {
        // The draft went between the lookup and this read (filed or deleted elsewhere): a fresh claim.
      }
      return { order, restored };
    },
    onSuccess: ({ order, restored }) => {
      const destination = destinationOf(order);
      if (destination === 'unprotected') {
        setProblem(
          "This order isn't covered by order protection, so a claim can't be filed here. Please contact the store for help.",
        );
      } else if (destination === 'claimed') {
        setProblem('Every item in this order already has a claim. Check your email for the link to your claim.');
      } else {
        void navigate({ to: destination === '/issues' && restored ? restored : destination });
      }
    },
    onError: (error) => {
      setProblem(
        isRateLimited(error)
          ? rateLimitedText(error)
          : error instanceof HttpError && error.status === 404
            ? NO_MATCH
            : 'Something went wrong while looking up your order. Please try again.',
      );
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(null);
    const input = validated();
    if (input) lookup.mutate(input);
  }

  return (
    <Page
      title="Get a resolution for your order in minutes"
      subtitle="We're sorry to hear you have a problem with your order. Let's get it resolved."
    >
      <form className="stack" onSubmit={onSubmit} noValidate>
        {fields}
        {problem ? <Alert>{problem}</Alert> : null}
        <button type="submit" className="button button-primary" disabled={lookup.isPending}>
          {lookup.isPending ? 'Looking up your order…' : 'Continue'}
        </button>
      </form>
      <p>
        Already filed a claim? <Link to="/claim-links">Get your claim links by email</Link>
      </p>
    </Page>
  );
}
