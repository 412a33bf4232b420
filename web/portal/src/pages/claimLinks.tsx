import { useId, useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useMutation } from '@tanstack/react-query';
import { Alert, Page } from '@claims/ui/components';
import { api, isRateLimited, rateLimitedText } from '../api.js';

/**
 * /claim-links: a shopper who lost the link to their claim asks for it by order number and email. The links only
 * ever go to the order's email; the page shows the server's answer, which is the same whether anything matched.
 */
export function ClaimLinksPage() {
  const orderId = useId();
  const emailId = useId();
  const [orderNumber, setOrderNumber] = useState('');
  const [email, setEmail] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ order?: string; email?: string }>({});
  const request = useMutation({ mutationFn: (input: { order: string; email: string }) => api.requestClaimLinks(input) });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const order = orderNumber.trim();
    const mail = email.trim();
    const errors = {
      ...(order ? {} : { order: 'Enter your order number.' }),
      ...(mail ? {} : { email: 'Enter your email address.' }),
    };
    setFieldErrors(errors);
    if (errors.order || errors.email) return;
    request.mutate({ order, email: mail });
  }

  return (
    <Page title="Get your claim links" subtitle="Enter your order number and email address. We'll email the links to your claims on that order to the order's email address.">
      <form className="stack" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={orderId}>Order number</label>
          <input
            id={orderId} name="order" type="text" autoComplete="off" value={orderNumber}
            onChange={(e) => setOrderNumber(e.target.value)} aria-invalid={Boolean(fieldErrors.order)}
            aria-describedby={fieldErrors.order ? `${orderId}-error` : undefined} required
          />
          {fieldErrors.order ? <p id={`${orderId}-error`} className="field-error" role="alert">{fieldErrors.order}</p> : null}
        </div>
        <div className="field">
          <label htmlFor={emailId}>Email address</label>
          <input
            id={emailId} name="email" type="email" autoComplete="email" value={email}
            onChange={(e) => setEmail(e.target.value)} aria-invalid={Boolean(fieldErrors.email)}
            aria-describedby={fieldErrors.email ? `${emailId}-error` : undefined} required
          />
          {fieldErrors.email ? <p id={`${emailId}-error`} className="field-error" role="alert">{fieldErrors.email}</p> : null}
        </div>
        <div role="status">{request.isSuccess ? <p className="alert alert-success">{request.data.message}</p> : null}</div>
        {request.isError ? (
          <Alert>{isRateLimited(request.error) ? rateLimitedText(request.error) : 'Something went wrong while sending your links. Please try again.'}</Alert>
        ) : null}
        <button type="submit" className="button button-primary" disabled={request.isPending}>
          {request.isPending ? 'Sending…' : 'Email my claim links'}
        </button>
      </form>
      <p><Link to="/start">File a new claim instead</Link></p>
    </Page>
  );
}
