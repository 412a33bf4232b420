import { useEffect } from 'react';
import { Link, useLocation } from '@tanstack/react-router';
import { ErrorView } from '@claims/ui/components';
import { NO_ROUTE_MATCHES } from '@claims/ui';
import { reportError } from '../sentry.js';

const StartLink = () => (
  <Link to="/start" className="button button-primary">
    Go to the start
  </Link>
);

/** 'Page Not Found: ' plus the path; a path no route matches says 'Page not found', a failed validate rule why (docs/product.md#error-pages). */
export function NotFoundPage({ data }: { data?: unknown }) {
  const location = useLocation();
  const description =
    data === undefined ? NO_ROUTE_MATCHES : "This link isn't valid. Check that you copied all of it from your email.";
  return (
    <ErrorView
      status={404}
      title="Page Not Found"
      message={`Page Not Found: ${location.pathname}`}
      description={description}
    >
      <StartLink />
    </ErrorView>
  );
}

/** The generic error page, status 500 by default (docs/product.md#error-pages). */
export function AppErrorPage({ error }: { error: unknown }) {
  const status =
    typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number'
      ? error.status
      : 500;
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  useEffect(() => {
    if (status >= 500) reportError(error);
  }, [error, status]);
  return (
    <ErrorView
      status={status}
      title="Internal Server Error"
      message={message}
      description="Something went wrong on our side. Please try again."
    >
      <StartLink />
    </ErrorView>
  );
}
