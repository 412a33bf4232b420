import { Link, useLocation } from '@tanstack/react-router';
import { ErrorView } from '@claims/ui/components';
import { NO_ROUTE_MATCHES } from '@claims/ui';

/** Spec §8: 'Page Not Found: ' plus the path; a path no route matches says 'Page not found'. */
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

/** Spec §8: an unhandled error shows status, message and description; the title defaults to Internal Server Error. */
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
