import { QueryClient } from '@tanstack/react-query';
import { retryDelay, retryWhileUnavailable } from '@claims/ui/unavailable-retry';

/** react-query's own default: three more tries for any failure. */
const DEFAULT_RETRIES = 3;

/**
 * The portal's one query cache: the app renders from it, and routes fill it ahead of their pages. A read meeting the
 * API briefly unavailable waits its Retry-After and tries again (UnavailableNotice says so meanwhile).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      retry: retryWhileUnavailable((count) => count < DEFAULT_RETRIES),
      retryDelay,
    },
  },
});
