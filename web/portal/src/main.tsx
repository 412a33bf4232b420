import '@claims/ui/zod-setup';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { preloadFlow, router } from './router.js';
import { installChunkReload } from './chunkReload.js';
import { startErrorReporting } from './sentry.js';
import './styles.css';

const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 10_000, refetchOnWindowFocus: false } } });

// Spec §8: a failed chunk load reloads the page once, at most every 10 seconds.
installChunkReload();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);

// Error reporting starts once the page is up (it loads nothing unless a DSN and an environment are configured).
const idle = window.requestIdleCallback ?? ((callback: () => void) => window.setTimeout(callback, 1));
idle(() => {
  void startErrorReporting();
  preloadFlow();
});
