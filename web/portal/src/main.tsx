import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { createPortalRouter, preloadFlow } from './router.js';
import { installChunkReload } from './chunkReload.js';
import { startErrorReporting } from './sentry.js';
import { rememberLocale } from './localeCookie.js';
import { installBrandingPreview } from './brandingPreview.js';
import { queryClient } from './queryClient.js';
import '@claims/ui/tokens.css';
import '@claims/ui/base.css';
import './styles.css';

// A failed chunk load reloads the page once, at most every 10 seconds (docs/product.md#messages-the-shopper-reads).
installChunkReload();
rememberLocale();
void installBrandingPreview();

// The router is made in a task after the one evaluating the modules, each short enough not to block a slow phone's
// main thread for long (together they were one long task). The first render is a transition: React renders it in small
// slices instead of one long task (the page's boot markup stays painted meanwhile).
const root = createRoot(document.getElementById('root')!);
window.setTimeout(() => {
  const router = createPortalRouter();
  startTransition(() => {
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    );
  });
}, 0);

// Error reporting starts once the page is up (it loads nothing unless a DSN and an environment are configured).
const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 1));
idle(() => void startErrorReporting());

// The claim flow's chunks are fetched ahead once the shopper starts using the page (typing an order number takes
// longer than fetching them), not while the first screen is still loading. Not on focus: each page focuses its own
// heading as it renders, which started the preload during start-up (a Tab into the page is a keydown).
const INTERACTIONS = ['pointerdown', 'keydown', 'touchstart'] as const;
const preloadOnce = () => {
  for (const type of INTERACTIONS) window.removeEventListener(type, preloadOnce, true);
  idle(() => preloadFlow());
};
for (const type of INTERACTIONS) window.addEventListener(type, preloadOnce, { capture: true, passive: true });
