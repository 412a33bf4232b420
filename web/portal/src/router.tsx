import { useEffect, type ReactNode } from 'react';
import {
  Link,
  Outlet,
  createRootRoute,
  createRoute,
  createRouter,
  notFound,
  redirect,
  useMatches,
} from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { CLAIM_TOKEN_PATTERN } from '@claims/contracts';
import { INVALID_ROUTE } from '@claims/ui';
import { UnavailableNotice } from '@claims/ui/components';
import { api } from './api.js';
import { applyBranding, servedOnCustomDomain } from './branding.js';
import { useBrandingPreview } from './brandingPreview.js';
import { lazyPage } from './chunkReload.js';
import { queryClient } from './queryClient.js';
import { flowOn, getState, resetOrder, restoreSavedState, setState, trackStep, usePortal } from './claimFlowState.js';
import { StartPage } from './pages/start.js';
import { AppErrorPage, NotFoundPage } from './pages/errors.js';

/** Pages render in a layout chosen by route meta; the default layout otherwise (docs/product.md#access-guard). */
export type LayoutName = 'default' | 'app' | 'app-spec' | 'view-my-claim';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    layout?: LayoutName;
  }
}

/** Access guard: these paths need no looked-up order (docs/product.md#access-guard). */
export const isOpenPath = (path: string) =>
  path.includes('return') || path.includes('/view') || path.includes('/print');

/** Validate rule of the token routes: a URL-safe token, else the 404 page (docs/product.md#portal-routes). */
export const TOKEN_PATTERN = CLAIM_TOKEN_PATTERN;

// Every screen but the start page (the usual landing) is its own chunk.
const issuesPages = () => import('./pages/issues.js');
const IssuesPage = lazyPage(issuesPages, (m) => m.IssuesPage);
const ShipmentListPage = lazyPage(issuesPages, (m) => m.ShipmentListPage);
const ShipmentDetailsPage = lazyPage(issuesPages, (m) => m.ShipmentDetailsPage);
const MultipleShipmentsPage = lazyPage(issuesPages, (m) => m.MultipleShipmentsPage);
const ItemsPage = lazyPage(
  () => import('./pages/items.js'),
  (m) => m.ItemsPage,
);
const resolutionPages = () => import('./pages/resolution.js');
const ResolutionPage = lazyPage(resolutionPages, (m) => m.ResolutionPage);
const ReviewPage = lazyPage(resolutionPages, (m) => m.ReviewPage);
const outcomePages = () => import('./pages/outcomes.js');
const HomePage = lazyPage(outcomePages, (m) => m.HomePage);
const ProcessPage = lazyPage(outcomePages, (m) => m.ProcessPage);
const ClaimReceivedPage = lazyPage(outcomePages, (m) => m.ClaimReceivedPage);
const NotShippedPage = lazyPage(outcomePages, (m) => m.NotShippedPage);
const TooLatePage = lazyPage(outcomePages, (m) => m.TooLatePage);
const TooSoonPage = lazyPage(outcomePages, (m) => m.TooSoonPage);
const ReturnPage = lazyPage(
  () => import('./pages/returns.js'),
  (m) => m.ReturnStartPage,
);
const viewPages = () => import('./pages/view.js');
const ViewClaimPage = lazyPage(viewPages, (m) => m.ViewClaimPage);
const ViewReviewPage = lazyPage(viewPages, (m) => m.ViewReviewPage);
const PrintPage = lazyPage(
  () => import('./pages/returnLabel.js'),
  (m) => m.PrintPage,
);
const ClaimLinksPage = lazyPage(
  () => import('./pages/claimLinks.js'),
  (m) => m.ClaimLinksPage,
);

/** The store's whitelabel answer: its look, its contact and its policy links. */
function useWhitelabel() {
  const orderStore = usePortal((s) => (s.demo ? null : (s.order?.storeId ?? null)));
  const brandStore = usePortal((s) => s.brandStoreId);
  const queryStore = usePortal((s) => s.queryStore);
  // The store query parameter first, else the order's (or the viewed claim's) store (docs/product.md#access-guard).
  const store = queryStore ?? orderStore ?? brandStore ?? undefined;
  // A whitelabel failure is swallowed; the portal keeps its default look. On a store's custom domain the (docs/product.md#messages-the-shopper-reads)
  // domain alone finds its branding.
  return useQuery({
    queryKey: ['whitelabel', store],
    queryFn: () => api.whitelabel(store),
    enabled: Boolean(store) || servedOnCustomDomain(),
    retry: false,
    staleTime: 300_000,
  });
}

function useBrand() {
  const whitelabel = useWhitelabel();
  // The branding editor's unsaved draft, while the portal is its preview.
  const preview = useBrandingPreview();
  const brand = preview
    ? { storeId: whitelabel.data?.storeId ?? '', storeName: preview.storeName, branding: preview.branding }
    : whitelabel.data;
  useEffect(() => applyBranding(brand?.branding), [brand]);
  return brand;
}

function Header({ children }: { children?: ReactNode }) {
  const brand = useBrand();
  return (
    <header className="site-header">
      {brand?.branding.logoUrl ? (
        <img className="logo" src={brand.branding.logoUrl} alt={brand.storeName} height={32} />
      ) : (
        <span className="logo-text">{brand?.storeName ?? 'Order help'}</span>
      )}
      {children}
    </header>
  );
}

const isWebLink = (url: string | null): url is string => url !== null && /^https?:\/\//i.test(url);

/** Where a shopper finds the store's own help and its policies, as the store has set them (nothing when it has none). */
function SiteFooter() {
  const store = useWhitelabel().data;
  if (!store) return null;
  const { supportEmail, supportPhone } = store.contact;
  const policies: Array<[string, string | null]> = [
    ['Terms of service', store.policies.termsUrl],
    ['Privacy policy', store.policies.privacyUrl],
    ['Protection terms', store.policies.protectionTermsUrl],
  ];
  const links = policies.flatMap(([label, url]) => (isWebLink(url) ? [{ label, url }] : []));
  if (!supportEmail && !supportPhone && links.length === 0) return null;
  return (
    <footer className="site-footer">
      {supportEmail || supportPhone ? (
        <p>
          Need help from {store.storeName}?{' '}
          {supportEmail ? <a href={`mailto:${supportEmail}`}>{supportEmail}</a> : null}
          {supportEmail && supportPhone ? ' · ' : null}
          {supportPhone ? <a href={`tel:${supportPhone.replace(/[^\d+]/g, '')}`}>{supportPhone}</a> : null}
        </p>
      ) : null}
      {links.length > 0 ? (
        <nav aria-label="Store policies">
          {links.map(({ label, url }) => (
            <a key={label} href={url} rel="noopener noreferrer" target="_blank">
              {label}
            </a>
          ))}
        </nav>
      ) : null}
    </footer>
  );
}

function Main({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <main id="main" tabIndex={-1} className={wide ? 'main-wide' : undefined}>
      {children}
    </main>
  );
}

/** Default: the start page, returns and error pages. */
function DefaultLayout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <Main>
        <Outlet />
      </Main>
      <SiteFooter />
    </>
  );
}

/** app: the claim flow, with the order it is about and a way to start over. */
function AppLayout() {
  const orderNumber = usePortal((s) => s.order?.orderNumber ?? null);
  const demo = usePortal((s) => s.demo);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header>
        {orderNumber ? (
          <nav className="header-nav" aria-label="Claim">
            <span className="header-order">
              {demo ? 'Sample order' : 'Order'} #{orderNumber}
            </span>
            <Link to="/start">Start over</Link>
          </nav>
        ) : null}
      </Header>
      <Main>
        <Outlet />
      </Main>
      <SiteFooter />
    </>
  );
}

/** app-spec: the bare page (printing), no site chrome. */
function AppSpecLayout() {
  useBrand();
  return (
    <Main wide>
      <Outlet />
    </Main>
  );
}

/** view-my-claim: a claim opened by its token, with that claim's own pages. */
function ViewMyClaimLayout() {
  const token = useMatches({
    select: (matches) => matches.map((m) => (m.params as { token?: string }).token).find(Boolean) ?? null,
  });
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header>
        {token ? (
          <nav className="header-nav" aria-label="My claim">
            <Link to="/view/$token" params={{ token }} activeOptions={{ exact: true }}>
              My claim
            </Link>
            <Link to="/print/$token" params={{ token }}>
              Print
            </Link>
          </nav>
        ) : null}
      </Header>
      <Main>
        <Outlet />
      </Main>
      <SiteFooter />
    </>
  );
}

const LAYOUTS: Record<LayoutName, () => ReactNode> = {
  default: DefaultLayout,
  app: AppLayout,
  'app-spec': AppSpecLayout,
  'view-my-claim': ViewMyClaimLayout,
};

function Root() {
  const layout = useMatches({
    select: (matches) => {
      for (let i = matches.length - 1; i >= 0; i--) {
        const name = matches[i]?.staticData.layout;
        if (name) return name;
      }
      return 'default' as const;
    },
  });
  const Layout = LAYOUTS[layout];
  return (
    <>
      <UnavailableNotice />
      <Layout />
    </>
  );
}

const searchValue = (search: Record<string, unknown>, key: string): string | null => {
  const value = search[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
};

const rootRoute = createRootRoute({
  component: Root,
  notFoundComponent: NotFoundPage,
  errorComponent: AppErrorPage,
  beforeLoad: async ({ location }) => {
    await restoreSavedState();
    // A `.spec` duplicate of a route is the same screen (docs/product.md#portal-routes).
    if (location.pathname.length > 5 && location.pathname.endsWith('.spec')) {
      throw redirect({ href: `${location.pathname.slice(0, -'.spec'.length)}${location.searchStr}`, replace: true });
    }
    const search = location.search as Record<string, unknown>;
    const store = searchValue(search, 'store');
    if (store && store !== getState().queryStore) setState({ queryStore: store });
    // The `fake` flag loads the built-in sample order (docs/product.md#access-guard).
    if ('fake' in search && !getState().demo) {
      const { sampleOrder } = await import('./fake.js');
      setState({ ...flowOn(sampleOrder()), demo: true });
      if (location.pathname === '/' || location.pathname === '/start') throw redirect({ to: '/issues', replace: true });
    }
  },
});

/** Every path outside the open list redirects to /start while no order is loaded. */
const guarded = createRoute({
  getParentRoute: () => rootRoute,
  id: 'guarded',
  staticData: { layout: 'app' },
  beforeLoad: ({ location }) => {
    if (!getState().order && !isOpenPath(location.pathname)) throw redirect({ to: '/start' });
    trackStep(location.pathname);
  },
});

const page = (path: string, component: () => ReactNode) =>
  createRoute({ getParentRoute: () => guarded, path, component });

const home = page('/', HomePage);
const start = createRoute({
  getParentRoute: () => rootRoute,
  path: '/start',
  component: StartPage,
  beforeLoad: () => resetOrder(),
});
// Like /start, an entry point needing no looked-up order: a shopper asks for the links to their claims by mail.
const claimLinks = createRoute({ getParentRoute: () => rootRoute, path: '/claim-links', component: ClaimLinksPage });

const issues = createRoute({ getParentRoute: () => guarded, path: '/issues' });
const issuesIndex = createRoute({ getParentRoute: () => issues, path: '/', component: IssuesPage });
const issuesItems = createRoute({ getParentRoute: () => issues, path: 'items', component: ItemsPage });
const shipment = createRoute({ getParentRoute: () => issues, path: 'shipment' });
const shipmentIndex = createRoute({ getParentRoute: () => shipment, path: '/', component: ShipmentListPage });
const shipmentDetails = createRoute({
  getParentRoute: () => shipment,
  path: 'details',
  component: ShipmentDetailsPage,
});

const multipleShipments = page('/multiple-shipments', MultipleShipmentsPage);
const processRoute = createRoute({ getParentRoute: () => guarded, path: '/process' });
const processIndex = createRoute({ getParentRoute: () => processRoute, path: '/', component: ProcessPage });

const resolution = createRoute({ getParentRoute: () => guarded, path: '/resolution' });
const resolutionIndex = createRoute({ getParentRoute: () => resolution, path: '/', component: ResolutionPage });
const resolutionReview = createRoute({ getParentRoute: () => resolution, path: 'review', component: ReviewPage });

const claimReceived = page('/claim-received', ClaimReceivedPage);
const notShipped = page('/not-shipped', NotShippedPage);
const tooLate = page('/too-late', TooLatePage);
const tooSoon = page('/too-soon', TooSoonPage);

const returnRoute = createRoute({ getParentRoute: () => rootRoute, path: '/return' });
const returnIndex = createRoute({ getParentRoute: () => returnRoute, path: '/', component: ReturnPage });
const returnStart = createRoute({ getParentRoute: () => returnRoute, path: 'start', component: ReturnPage });

const validToken = ({ params }: { params: { token: string } }) => {
  if (!TOKEN_PATTERN.test(params.token)) throw notFound({ data: INVALID_ROUTE });
};
/**
 * The claim a token opens is asked for as soon as the route matches, while the page's chunk is still on its way (not
 * after it rendered): on a slow phone that is one round trip less before the claim shows. Not awaited, so nothing waits.
 */
const prefetchClaim = ({ params }: { params: { token: string } }) => {
  void queryClient.prefetchQuery({ queryKey: ['claim', params.token], queryFn: () => api.getClaim(params.token) });
};
const print = createRoute({
  getParentRoute: () => rootRoute,
  path: '/print/$token',
  component: PrintPage,
  beforeLoad: validToken,
  loader: prefetchClaim,
  staticData: { layout: 'app-spec' },
});
const view = createRoute({
  getParentRoute: () => rootRoute,
  path: '/view/$token',
  beforeLoad: validToken,
  loader: prefetchClaim,
  staticData: { layout: 'view-my-claim' },
});
const viewIndex = createRoute({ getParentRoute: () => view, path: '/', component: ViewClaimPage });
const viewReview = createRoute({ getParentRoute: () => view, path: 'review', component: ViewReviewPage });

const routeTree = rootRoute.addChildren([
  start,
  claimLinks,
  guarded.addChildren([
    home,
    issues.addChildren([issuesIndex, issuesItems, shipment.addChildren([shipmentIndex, shipmentDetails])]),
    multipleShipments,
    processRoute.addChildren([processIndex]),
    resolution.addChildren([resolutionIndex, resolutionReview]),
    claimReceived,
    notShipped,
    tooLate,
    tooSoon,
  ]),
  returnRoute.addChildren([returnIndex, returnStart]),
  print,
  view.addChildren([viewIndex, viewReview]),
]);

/** Once the page is idle, the claim flow's chunks are fetched ahead, so the next step opens at once. */
export function preloadFlow(pathname: string = window.location.pathname): void {
  if (isOpenPath(pathname)) return;
  for (const page of [IssuesPage, ItemsPage, ResolutionPage, HomePage]) void page.preload();
}

/** The portal's router, made once at start-up (main.tsx makes it in a task apart from the modules' evaluation). */
export const createPortalRouter = () =>
  createRouter({
    routeTree,
    defaultNotFoundComponent: NotFoundPage,
    defaultErrorComponent: AppErrorPage,
    notFoundMode: 'root',
    scrollRestoration: true,
    defaultPendingMs: 300,
  });
