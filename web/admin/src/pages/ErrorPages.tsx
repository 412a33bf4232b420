import { Link, useLocation } from '@tanstack/react-router';
import { Page } from '../components/ui.js';

/** Spec §8: 'Page Not Found: ' plus the path. */
export function NotFoundPage() {
  const location = useLocation();
  return (
    <main id="main" className="narrow" tabIndex={-1}>
      <Page title="Page Not Found">
        <p className="status-code">404</p>
        <p>Page Not Found: {location.pathname}</p>
        <Link to="/" search={{}} className="button button-secondary">Go to the claim queue</Link>
      </Page>
    </main>
  );
}

/** Spec §8: an unhandled error shows status, message and description; the title defaults to Internal Server Error. */
export function ErrorPage({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return (
    <main id="main" className="narrow" tabIndex={-1}>
      <Page title="Internal Server Error">
        <p className="status-code">500</p>
        <p className="status-message">{message}</p>
        <p>Reload the page to try again. If it keeps happening, tell the Order Protection team.</p>
      </Page>
    </main>
  );
}
