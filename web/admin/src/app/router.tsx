import { QueryCache, QueryClient } from '@tanstack/react-query';
import {
  Outlet,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
} from '@tanstack/react-router';
import { z } from 'zod';
import { UnavailableNotice } from '@claims/ui/components';
import { retryDelay, retryWhileUnavailable } from '@claims/ui/unavailable-retry';
import { isHttpError } from '../shared/api.js';
import { meQuery } from '../shared/session.js';
import { AppLayout } from './AppLayout.js';
import { SignInPage } from '../team/SignInPage.js';
import { AcceptInvitationPage } from '../team/AcceptInvitationPage.js';
import { QueuePage } from '../claims/QueuePage.js';
import { ClaimPage } from '../claims/ClaimPage.js';
import { ErrorPage, NotFoundInFrame, NotFoundPage } from './ErrorPages.js';
import { TeamPage } from '../team/TeamPage.js';
import { StoreSearch } from '../shared/components/StorePicker.js';
import { SupportUsersPage } from '../team/SupportUsersPage.js';
import { ApiTokensPage } from '../integrations/ApiTokensPage.js';
import { OperationsPage } from '../operations/OperationsPage.js';
import { SettingsPage } from '../settings/SettingsPage.js';
import { WebhooksPage, WebhooksSearch } from '../integrations/WebhooksPage.js';
import { ProfilePage } from '../team/ProfilePage.js';
import { AnalyticsSearch } from '../insights/analytics/period.js';
import { QueueSearch, parseSearch, stringifySearch } from '../claims/queue/search.js';
import { InvoicesPage } from '../money/InvoicesPage.js';
import { InvoicePage } from '../money/InvoicePage.js';
import { PaymentMethodsPage } from '../money/PaymentMethodsPage.js';
import { InvoicesSearch } from '../money/billing/month.js';
import { FinanceLayout } from '../money/finance/FinanceLayout.js';
import { FinanceChartsSearch } from '../money/finance/period.js';
import { PayoutsPage, PayoutsSearch } from '../money/PayoutsPage.js';
import { FinanceReplayPage, ReplaySearch } from '../money/FinanceReplayPage.js';
import { StoreCreditPage, StoreCreditSearch } from '../money/StoreCreditPage.js';
import { MacrosPage, MacrosSearch } from '../settings/MacrosPage.js';
import { SopsPage, SopsSearch } from '../settings/SopsPage.js';
import { OrderPage } from '../claims/OrderPage.js';
import { ReviewsPage, ReviewsSearch } from '../claims/ReviewsPage.js';
import { BrandingPage } from '../settings/BrandingPage.js';
import { AbTestsPage } from '../settings/AbTestsPage.js';
import { OnboardingPage } from '../operations/OnboardingPage.js';
import { ReturnsPage, ReturnsSearch } from '../claims/ReturnsPage.js';
import { RulesPage } from '../automation/RulesPage.js';

export const queryClient = new QueryClient({
  // A session that ended (expired, signed out in another tab) sends the user to sign in, then back here.
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (!isHttpError(error, 401) || query.queryKey[0] === meQuery.queryKey[0]) return;
      queryClient.removeQueries({ queryKey: meQuery.queryKey });
      void router.navigate({
        to: '/sign-in',
        search: { redirect: router.state.location.href, signedOut: undefined },
        replace: true,
      });
    },
  }),
  defaultOptions: {
    // A read meeting the API briefly unavailable waits its Retry-After and tries again, UnavailableNotice saying so.
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      retry: retryWhileUnavailable((count, error) => !isHttpError(error) && count < 1),
      retryDelay,
    },
  },
});

interface RouterContext {
  queryClient: QueryClient;
}

/** Only a path inside this app may be the place to go back to after signing in. */
const safeRedirect = (value: unknown) =>
  typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : undefined;

/** Every page, signed in or not, with the notice of reads waiting on the API to be back. */
function Root() {
  return (
    <>
      <UnavailableNotice />
      <Outlet />
    </>
  );
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Root,
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

/** Reached from an invitation's link, before the invitee has a password: no session needed. */
const acceptInvitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/accept-invitation',
  component: AcceptInvitationPage,
});

/** Everything else needs a session: the user (with permissions per store) comes from GET /api/auth/me. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    try {
      await context.queryClient.ensureQueryData(meQuery);
    } catch (error) {
      if (isHttpError(error, 401))
        throw redirect({ to: '/sign-in', search: { redirect: location.href, signedOut: undefined } });
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

export const supportUsersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/support-users',
  component: SupportUsersPage,
});

export const apiTokensRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/api-tokens',
  validateSearch: (raw) => StoreSearch.parse(raw),
  component: ApiTokensPage,
});

export const settingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings',
  validateSearch: (raw) => StoreSearch.parse(raw),
  component: SettingsPage,
});

export const webhooksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/webhooks',
  validateSearch: (raw) => WebhooksSearch.parse(raw),
  component: WebhooksPage,
});

export const analyticsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/analytics',
  validateSearch: (raw) => AnalyticsSearch.parse(raw),
  // The charts are most of the back-office's script: loaded only by this page.
  component: lazyRouteComponent(() => import('../insights/AnalyticsPage.js'), 'AnalyticsPage'),
});

/** Not lazy, for the reason the operations page gives. */
const onboardingRoute = createRoute({ getParentRoute: () => appRoute, path: '/onboarding', component: OnboardingPage });

export const operationsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/operations',
  // Not lazy: a second lazy chunk importing contracts' schemas moved them into a chunk evaluated
  // before zod-setup, and zod's eval probe became a CSP violation on every page.
  component: OperationsPage,
});

export const invoicesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/invoices',
  validateSearch: (raw) => InvoicesSearch.parse(raw),
  component: InvoicesPage,
});

export const invoiceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/invoices/$invoiceId',
  component: InvoicePage,
});

export const paymentMethodsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/payment-methods',
  validateSearch: (raw) => StoreSearch.parse(raw),
  component: PaymentMethodsPage,
});

const billingRoutes = [invoicesRoute, invoiceRoute, paymentMethodsRoute];

// Finance (Order Protection's finance team): payouts and batches, the replay, and monthly premiums and payouts.
export const financeRoute = createRoute({ getParentRoute: () => appRoute, path: '/finance', component: FinanceLayout });

const financeIndexRoute = createRoute({
  getParentRoute: () => financeRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/finance/payouts', search: {}, replace: true });
  },
});

export const payoutsRoute = createRoute({
  getParentRoute: () => financeRoute,
  path: '/payouts',
  validateSearch: (raw) => PayoutsSearch.parse(raw),
  component: PayoutsPage,
});

export const financeReplayRoute = createRoute({
  getParentRoute: () => financeRoute,
  path: '/replay',
  validateSearch: (raw) => ReplaySearch.parse(raw),
  component: FinanceReplayPage,
});

export const financeChartsRoute = createRoute({
  getParentRoute: () => financeRoute,
  path: '/charts',
  validateSearch: (raw) => FinanceChartsSearch.parse(raw),
  // Its charts come with the analytics page's chunk of recharts, loaded only by these two pages.
  component: lazyRouteComponent(() => import('../money/FinanceChartsPage.js'), 'FinanceChartsPage'),
});

export const storeCreditRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/store-credit',
  validateSearch: (raw) => StoreCreditSearch.parse(raw),
  component: StoreCreditPage,
});

export const returnsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/returns',
  validateSearch: (raw) => ReturnsSearch.parse(raw),
  component: ReturnsPage,
});

export const profileRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/profile',
  component: ProfilePage,
});

export const macrosRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/macros',
  validateSearch: (raw) => MacrosSearch.parse(raw),
  component: MacrosPage,
});

export const sopsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/sops',
  validateSearch: (raw) => SopsSearch.parse(raw),
  component: SopsPage,
});

export const orderRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/orders/$orderId',
  component: OrderPage,
});

export const reviewsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/reviews',
  validateSearch: (raw) => ReviewsSearch.parse(raw),
  component: ReviewsPage,
});

const deskToolRoutes = [macrosRoute, sopsRoute, orderRoute, reviewsRoute];

export const brandingRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/branding',
  validateSearch: (raw) => StoreSearch.parse(raw),
  component: BrandingPage,
});

export const abTestsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/ab-tests',
  validateSearch: (raw) => StoreSearch.parse(raw),
  component: AbTestsPage,
});

export const rulesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/rules',
  validateSearch: (raw) => StoreSearch.parse(raw),
  component: RulesPage,
});

const financeTree = financeRoute.addChildren([financeIndexRoute, payoutsRoute, financeReplayRoute, financeChartsRoute]);

/** Any other path of a signed-in user: the 404 inside the app's frame, its navigation kept. */
const notFoundInFrameRoute = createRoute({ getParentRoute: () => appRoute, path: '$', component: NotFoundInFrame });

const routeTree = rootRoute.addChildren([
  signInRoute,
  acceptInvitationRoute,
  appRoute.addChildren([
    queueRoute,
    claimRoute,
    teamRoute,
    supportUsersRoute,
    apiTokensRoute,
    settingsRoute,
    webhooksRoute,
    analyticsRoute,
    operationsRoute,
    financeTree,
    storeCreditRoute,
    profileRoute,
    ...billingRoutes,
    ...deskToolRoutes,
    brandingRoute,
    abTestsRoute,
    onboardingRoute,
    returnsRoute,
    rulesRoute,
    notFoundInFrameRoute,
  ]),
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
