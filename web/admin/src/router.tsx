import { QueryCache, QueryClient } from '@tanstack/react-query';
import { Outlet, createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { isHttpError } from './api.js';
import { meQuery } from './session.js';
import { AppLayout } from './pages/AppLayout.js';
import { SignInPage } from './pages/SignInPage.js';
import { QueuePage } from './pages/QueuePage.js';
import { ClaimPage } from './pages/ClaimPage.js';
import { ErrorPage, NotFoundPage } from './pages/ErrorPages.js';
import { StoreSearch, TeamPage } from './pages/TeamPage.js';
import { ApiTokensPage } from './pages/ApiTokensPage.js';
import { OperationsPage } from './pages/OperationsPage.js';
import { ProfilePage } from './pages/ProfilePage.js';
import { AnalyticsSearch } from './analytics/period.js';
import { QueueSearch, parseSearch, stringifySearch } from './queue/search.js';

export const queryClient = new QueryClient({
  // A session that ended (expired, signed out in another tab) sends the user to sign in, then back here.
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (!isHttpError(error, 401) || query.queryKey[0] === 'me') return;
      queryClient.removeQueries({ queryKey: meQuery.queryKey });
      void router.navigate({ to: '/sign-in', search: { redirect: router.state.location.href, signedOut: undefined }, replace: true });
    },
  }),
  defaultOptions: {
    queries: { staleTime: 10_000, refetchOnWindowFocus: false, retry: (count, error) => !isHttpError(error) && count < 1 },
  },
});

interface RouterContext {
  queryClient: QueryClient;
}

/** Only a path inside this app may be the place to go back to after signing in. */
const safeRedirect = (value: unknown) => (typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : undefined);

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

export const SignInSearch = z.object({
  redirect: z.string().max(2_000).optional().transform(safeRedirect).catch(undefined),
  signedOut: z.literal('1').optional().catch(undefined),
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: (raw) => SignInSearch.parse(raw),
  // Already signed in (in this tab): straight on. No request here, so a signed-out visit stays quiet.
  beforeLoad: ({ context, search }) => {
    if (context.queryClient.getQueryData(meQuery.queryKey)) throw redirect({ href: search.redirect ?? '/' });
  },
  component: SignInPage,
});

/** Everything else needs a session: the user (with permissions per store) comes from GET /api/auth/me. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    try {
      await context.queryClient.ensureQueryData(meQuery);
    } catch (error) {
      if (isHttpError(error, 401)) throw redirect({ to: '/sign-in', search: { redirect: location.href, signedOut: undefined } });
      throw error;
    }
  },
  component: AppLayout,
});

export const queueRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  validateSearch: (raw) => QueueSearch.parse(raw),
  component: QueuePage,
});

export const ClaimSearch = z.object({
  /** The timeline entry (stream version) selected. */
  v: z.coerce.number().int().nonnegative().optional().catch(undefined),
});

export const claimRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/claims/view/$claimRef',
  validateSearch: (raw) => ClaimSearch.parse(raw),
  component: ClaimPage,
});

export const teamRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/team',
  validateSearch: (raw) => StoreSearch.parse(raw),
  component: TeamPage,
});

export const apiTokensRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/api-tokens',
  validateSearch: (raw) => StoreSearch.parse(raw),
  component: ApiTokensPage,
});

export const analyticsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/analytics',
  validateSearch: (raw) => AnalyticsSearch.parse(raw),
  // The charts are most of the back-office's script: loaded only by this page.
  component: lazyRouteComponent(() => import('./pages/AnalyticsPage.js'), 'AnalyticsPage'),
});

export const operationsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/operations',
  // Not lazy: a second lazy chunk importing contracts' schemas moved them into a chunk evaluated
  // before zod-setup, and zod's eval probe became a CSP violation on every page.
  component: OperationsPage,
});

export const profileRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/profile',
  component: ProfilePage,
});

const routeTree = rootRoute.addChildren([
  signInRoute, appRoute.addChildren([queueRoute, claimRoute, teamRoute, apiTokensRoute, analyticsRoute, operationsRoute, profileRoute]),
]);

export const router = createRouter({
  routeTree,
  basepath: '/admin',
  context: { queryClient },
  parseSearch,
  stringifySearch,
  defaultNotFoundComponent: NotFoundPage,
  defaultErrorComponent: ErrorPage,
  notFoundMode: 'root',
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
