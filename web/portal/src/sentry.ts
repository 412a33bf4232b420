import { api } from './api.js';

interface BrowserSentry {
  captureException(error: unknown): string;
}

let client: BrowserSentry | null = null;

/**
 * Error reporting (docs/product.md#error-reporting): the portal asks the server's public runtime configuration; only with a DSN and an
 * environment is @sentry/react loaded (its own chunk) and started, errors only, through the same-origin tunnel.
 */
export async function startErrorReporting(): Promise<void> {
  let config;
  try {
    config = await api.publicConfig();
  } catch {
    return;
  }
  const sentry = config.sentry;
  if (!sentry?.dsn || !sentry.environment) return;
  const Sentry = await import('@sentry/react');
  Sentry.init({
    dsn: sentry.dsn,
    environment: sentry.environment,
    tunnel: sentry.tunnel,
    tracesSampleRate: 0,
    // Addresses and emails are typed into forms and sit in URLs: send none of it.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    beforeBreadcrumb: (breadcrumb) => (breadcrumb.category === 'ui.input' ? null : breadcrumb),
  });
  client = Sentry;
}

/** Reports an error the app caught (the error page); a no-op while reporting is off. */
export function reportError(error: unknown): void {
  client?.captureException(error);
}
