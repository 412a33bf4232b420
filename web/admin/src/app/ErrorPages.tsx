import { Link, useLocation } from '@tanstack/react-router';
import { ErrorView } from '@claims/ui/components';
import { NO_ROUTE_MATCHES } from '@claims/ui';

/** 'Page Not Found: ' plus the path; a path no route matches says 'Page not found' (docs/product.md#error-pages). */
function NotFoundView() {
  // The path as the browser shows it (the router's own drops its /admin basepath); read again on each navigation.
  useLocation();
  return (
    <ErrorView
      status={404}
      title="Page Not Found"
      message={`Page Not Found: ${window.location.pathname}`}
      description={NO_ROUTE_MATCHES}
    >
      <Link to="/" search={{}} className="button button-secondary">
        Go to the claim queue
      </Link>
    </ErrorView>
  );
}

/** The 404 on its own (signed out, or outside the app's frame). */
export function NotFoundPage() {
  return (
    <main id="main" className="narrow" tabIndex={-1}>
      <NotFoundView />
    </main>
  );
}

/** The 404 inside the signed-in frame (header and navigation kept), for any path below /admin/ no page has. */
export function NotFoundInFrame() {
  return (
    <div className="narrow">
      <NotFoundView />
    </div>
  );
}

/** An unhandled error shows status, message and description; the title defaults to Internal Server Error (docs/product.md#messages-the-shopper-reads). */
export function ErrorPage({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return (
    <main id="main" className="narrow" tabIndex={-1}>
      <ErrorView
        status={500}
        title="Internal Server Error"
        message={message}
        description="Reload the page to try again. If it keeps happening, tell the Order Protection team."
      />
    </main>
  );
}
