import { useEffect } from 'react';
import { Outlet, createRootRoute, createRoute, createRouter, notFound, redirect } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { BUTTON_RADIUS, type Branding } from '@claims/contracts';
import { api } from './api.js';
import { getState, resetOrder, trackStep, usePortal } from './store.js';
import { StartPage } from './pages/start.js';
import { IssuesPage, MultipleShipmentsPage, ShipmentDetailsPage, ShipmentListPage } from './pages/issues.js';
import { ItemsPage } from './pages/items.js';
import { ResolutionPage, ReviewPage } from './pages/resolution.js';
import { ClaimReceivedPage, HomePage, NotShippedPage, ProcessPage, ReturnPage, TooLatePage, TooSoonPage } from './pages/outcomes.js';
import { PrintPage, TOKEN_PATTERN, ViewClaimPage, ViewReviewPage } from './pages/view.js';
import { AppErrorPage, NotFoundPage } from './pages/errors.js';

/** Spec §2 access guard: these paths need no looked-up order. */
export const isOpenPath = (path: string) => path.includes('return') || path.includes('/view') || path.includes('/print');

function applyBranding(branding: Branding | undefined) {
  const root = document.documentElement.style;
  const set = (name: string, value: string | undefined) => (value ? root.setProperty(name, value) : root.removeProperty(name));
  set('--brand-100', branding?.brand100);
  set('--brand-700', branding?.brand700);
  set('--brand-800', branding?.brand800);
  set('--brand-900', branding?.brand900);
  set('--page-bg', branding?.backgroundColor);
  set('--radius', branding?.buttonStyle ? BUTTON_RADIUS[branding.buttonStyle] : undefined);
}

function Layout() {
  const orderStore = usePortal((s) => s.order?.storeId ?? null);
  const brandStore = usePortal((s) => s.brandStoreId);
  const fromQuery = typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('store');
  const store = fromQuery ?? orderStore ?? brandStore ?? undefined;
  // Spec §8: a whitelabel failure is swallowed; the portal keeps its default look.
  const whitelabel = useQuery({ queryKey: ['whitelabel', store], queryFn: () => api.whitelabel(store), enabled: Boolean(store), retry: false });
  const brand = whitelabel.data;
  useEffect(() => applyBranding(brand?.branding), [brand]);
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="site-header">
        {brand?.branding.logoUrl ? <img className="logo" src={brand.branding.logoUrl} alt={brand.storeName} height={32} /> : <span className="logo-text">{brand?.storeName ?? 'Order help'}</span>}
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}

const rootRoute = createRootRoute({
  component: Layout,
  notFoundComponent: NotFoundPage,
  errorComponent: AppErrorPage,
});

/** Every path outside the open list redirects to /start while no order is loaded. */
const guarded = createRoute({
  getParentRoute: () => rootRoute,
  id: 'guarded',
  beforeLoad: ({ location }) => {
    if (!getState().order && !isOpenPath(location.pathname)) throw redirect({ to: '/start' });
    trackStep(location.pathname);
  },
});

const page = (path: string, component: () => React.ReactNode, parent: typeof guarded | typeof rootRoute = guarded) =>
  createRoute({ getParentRoute: () => parent, path, component });

const home = page('/', HomePage);
const start = createRoute({ getParentRoute: () => rootRoute, path: '/start', component: StartPage, beforeLoad: () => resetOrder() });

const issues = createRoute({ getParentRoute: () => guarded, path: '/issues' });
const issuesIndex = createRoute({ getParentRoute: () => issues, path: '/', component: IssuesPage });
const issuesItems = createRoute({ getParentRoute: () => issues, path: 'items', component: ItemsPage });
const shipment = createRoute({ getParentRoute: () => issues, path: 'shipment' });
const shipmentIndex = createRoute({ getParentRoute: () => shipment, path: '/', component: ShipmentListPage });
const shipmentDetails = createRoute({ getParentRoute: () => shipment, path: 'details', component: ShipmentDetailsPage });

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
  if (!TOKEN_PATTERN.test(params.token)) throw notFound();
};
const print = createRoute({ getParentRoute: () => rootRoute, path: '/print/$token', component: PrintPage, beforeLoad: validToken });
const view = createRoute({ getParentRoute: () => rootRoute, path: '/view/$token', beforeLoad: validToken });
const viewIndex = createRoute({ getParentRoute: () => view, path: '/', component: ViewClaimPage });
const viewReview = createRoute({ getParentRoute: () => view, path: 'review', component: ViewReviewPage });

const routeTree = rootRoute.addChildren([
  start,
  guarded.addChildren([
    home,
    issues.addChildren([issuesIndex, issuesItems, shipment.addChildren([shipmentIndex, shipmentDetails])]),
    multipleShipments,
    processRoute.addChildren([processIndex]),
    resolution.addChildren([resolutionIndex, resolutionReview]),
    claimReceived, notShipped, tooLate, tooSoon,
  ]),
  returnRoute.addChildren([returnIndex, returnStart]),
  print,
  view.addChildren([viewIndex, viewReview]),
]);

export const router = createRouter({
  routeTree,
  defaultNotFoundComponent: NotFoundPage,
  defaultErrorComponent: AppErrorPage,
  notFoundMode: 'root',
  scrollRestoration: true,
});
